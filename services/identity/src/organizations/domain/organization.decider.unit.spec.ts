import type { AppError, OrganizationEvent, OrganizationProvisioner, OrganizationSettings } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { organizationDecider } from './organization.decider';

const settings: OrganizationSettings = {
  name: 'Acme Corp',
  allowed_email_domains: ['acme.com'],
  allowed_authn_connections: ['sso'],
  color: null,
  icon_logo_url: null,
  inline_logo_url: null,
  locale: null,
  timezone: null,
  tenant_id: 'crm-42',
  environments: [{ name: 'sandbox', status: 'up' }],
};
const id = '2f1f9f6e-6a5e-4b8a-9a53-2a0b5b0d5c11';
const otherId = '7c4e2a10-3b8d-4f51-8e2a-6d9f0b1c2e33';
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: {
    id,
    domain: 'acme-corp',
    environment: 'sandbox',
    ...settings,
    provisioners: ['auth-methods', 'webhooks'],
    at: '2026-01-01T00:00:00.000Z',
  },
};
const deleted: OrganizationEvent = {
  type: 'OrganizationDeleted',
  data: { organization_id: id, domain: 'acme-corp', environment: 'sandbox', at: '2026-01-03T00:00:00.000Z' },
};
const otherEnvironment: AppError = {
  kind: 'fields',
  fields: {
    environments: ['can only name the environment of this organization, sandbox: an organization belongs to one environment'],
  },
};
const at = '2026-01-02T00:00:00.000Z';
const spec = deciderSpecification(organizationDecider);

describe('organization decider', () => {
  describe('CreateOrganization', () => {
    const create = {
      type: 'CreateOrganization' as const,
      data: {
        id,
        domain: 'acme-corp',
        environment: 'sandbox' as const,
        settings,
        provisioners: ['auth-methods' as const, 'webhooks' as const],
        at: '2026-01-01T00:00:00.000Z',
      },
    };

    it('creates a new organization in its environment', () => spec.given([]).when(create).then([created]));

    it('refuses settings that list another environment than its own', () => {
      const both = {
        ...settings,
        environments: [...settings.environments, { name: 'production' as const, status: 'up' as const }],
      };
      spec
        .given([])
        .when({ ...create, data: { ...create.data, settings: both } })
        .thenFails(otherEnvironment);
    });

    it('refuses a domain that is taken', () =>
      spec
        .given([created])
        .when(create)
        .thenFails({ kind: 'fields', fields: { domain: ['has already been taken'] }, reason: 'taken' }));

    it('lets a deleted organization domain be used again', () => spec.given([created, deleted]).when(create).then([created]));

    it('records no tenant_id when none is given', () =>
      spec
        .given([])
        .when({ ...create, data: { ...create.data, settings: { ...settings, tenant_id: null } } })
        .then([{ ...created, data: { ...created.data, tenant_id: null } } as OrganizationEvent]));
  });

  describe('UpdateOrganization', () => {
    it('records only the fields that change', () =>
      spec
        .given([created])
        .when({ type: 'UpdateOrganization', data: { changes: { name: 'Acme Corp', color: '#fff', locale: null }, at } })
        .then([{ type: 'OrganizationUpdated', data: { changes: { color: '#fff' }, at } }]));

    it('does nothing when nothing changes', () =>
      spec
        .given([created])
        .when({ type: 'UpdateOrganization', data: { changes: { name: 'Acme Corp', allowed_email_domains: ['acme.com'] }, at } })
        .thenNothingHappens());

    it('accepts the current domain but refuses another one', () => {
      spec
        .given([created])
        .when({ type: 'UpdateOrganization', data: { changes: { domain: 'acme-corp' }, at } })
        .thenNothingHappens();
      spec
        .given([created])
        .when({ type: 'UpdateOrganization', data: { changes: { domain: 'other' }, at } })
        .thenFails({ kind: 'fields', fields: { domain: ["can't be changed once the organization exists"] } });
    });

    it('records a new tenant_id, or its removal, and nothing for the same one', () => {
      const change = (tenant_id: string | null) => ({
        type: 'UpdateOrganization' as const,
        data: { changes: { tenant_id }, at },
      });
      spec
        .given([created])
        .when(change('crm-43'))
        .then([{ type: 'OrganizationUpdated', data: { changes: { tenant_id: 'crm-43' }, at } }]);
      spec
        .given([created])
        .when(change(null))
        .then([{ type: 'OrganizationUpdated', data: { changes: { tenant_id: null }, at } }]);
      spec.given([created]).when(change('crm-42')).thenNothingHappens();
    });

    it("changes the status of the organization's own environment", () =>
      spec
        .given([created])
        .when({ type: 'UpdateOrganization', data: { changes: { environments: [{ name: 'sandbox', status: 'down' }] }, at } })
        .then([{ type: 'OrganizationUpdated', data: { changes: { environments: [{ name: 'sandbox', status: 'down' }] }, at } }]));

    it('refuses environments naming the other environment, or not naming its own exactly once', () => {
      const update = (environments: OrganizationSettings['environments']) => ({
        type: 'UpdateOrganization' as const,
        data: { changes: { name: 'Acme Inc', environments }, at },
      });
      spec
        .given([created])
        .when(update([{ name: 'production', status: 'up' }]))
        .thenFails(otherEnvironment);
      spec
        .given([created])
        .when(
          update([
            { name: 'sandbox', status: 'up' },
            { name: 'production', status: 'up' },
          ]),
        )
        .thenFails(otherEnvironment);
      const once: AppError = {
        kind: 'fields',
        fields: { environments: ['must name the environment of this organization, sandbox, once'] },
      };
      spec.given([created]).when(update([])).thenFails(once);
      spec
        .given([created])
        .when(
          update([
            { name: 'sandbox', status: 'up' },
            { name: 'sandbox', status: 'down' },
          ]),
        )
        .thenFails(once);
    });

    it('refuses to update an organization that does not exist or was deleted', () => {
      const update = { type: 'UpdateOrganization' as const, data: { changes: { name: 'x' }, at } };
      spec.given([]).when(update).thenFails({ kind: 'error', code: 'resource_not_found' });
      spec.given([created, deleted]).when(update).thenFails({ kind: 'error', code: 'resource_not_found' });
    });
  });

  describe('DeleteOrganization', () => {
    const remove = { type: 'DeleteOrganization' as const, data: { at: '2026-01-03T00:00:00.000Z' } };

    it('deletes an organization, naming its id and environment for the cascade', () =>
      spec.given([created]).when(remove).then([deleted]));

    it('names the organization (id and environment) for the envelope of its events, a deleted one included', () => {
      const tenantAfter = (events: OrganizationEvent[]) =>
        organizationDecider.tenant?.(events.reduce(organizationDecider.evolve, organizationDecider.initialState()));
      expect(tenantAfter([])).toBeUndefined();
      expect(tenantAfter([created])).toEqual({ organization_id: id, environment: 'sandbox' });
      expect(tenantAfter([created, deleted])).toEqual({ organization_id: id, environment: 'sandbox' });
    });

    it('refuses to delete twice', () =>
      spec.given([created, deleted]).when(remove).thenFails({ kind: 'error', code: 'resource_not_found' }));
  });

  describe('ConfirmOrganizationProvisioning', () => {
    const confirm = (service: OrganizationProvisioner, organization_id = id) => ({
      type: 'ConfirmOrganizationProvisioning' as const,
      data: { organization_id, service, at },
    });
    const confirmed = (service: OrganizationProvisioner): OrganizationEvent => ({
      type: 'OrganizationProvisioningConfirmed',
      data: { organization_id: id, service, at },
    });

    it('records the confirmation of a service the organization awaits', () =>
      spec
        .given([created])
        .when(confirm('webhooks'))
        .then([confirmed('webhooks')]));

    it('records each service once: a redelivered acknowledgement adds nothing', () =>
      spec
        .given([created, confirmed('webhooks')])
        .when(confirm('webhooks'))
        .thenNothingHappens());

    it('ignores a service the organization did not await at its creation', () =>
      spec.given([created]).when(confirm('directory-sync')).thenNothingHappens());

    it('ignores a confirmation for a deleted organization, or for the former organization of a recreated domain', () => {
      spec.given([created, deleted]).when(confirm('webhooks')).thenNothingHappens();
      spec.given([]).when(confirm('webhooks')).thenNothingHappens();
      const recreated: OrganizationEvent = {
        type: 'OrganizationCreated',
        data: { ...(created.data as Extract<OrganizationEvent, { type: 'OrganizationCreated' }>['data']), id: otherId },
      };
      spec.given([created, deleted, recreated]).when(confirm('webhooks')).thenNothingHappens();
      spec
        .given([created, confirmed('webhooks'), deleted, recreated])
        .when(confirm('webhooks', otherId))
        .then([{ type: 'OrganizationProvisioningConfirmed', data: { organization_id: otherId, service: 'webhooks', at } }]);
    });

    it('leaves the settings and updated_at alone', () => {
      const state = [created, confirmed('auth-methods')].reduce(organizationDecider.evolve, organizationDecider.initialState());
      expect(state).toMatchObject({
        provisioners: ['auth-methods', 'webhooks'],
        provisioned_by: ['auth-methods'],
        updated_at: '2026-01-01T00:00:00.000Z',
      });
    });
  });

  describe('evolve', () => {
    it('gives an organization created before the pending state no service to await', () => {
      const { provisioners: _absent, ...before } = created.data as Extract<
        OrganizationEvent,
        { type: 'OrganizationCreated' }
      >['data'];
      const state = organizationDecider.evolve(organizationDecider.initialState(), { type: 'OrganizationCreated', data: before });
      expect(state).toMatchObject({ status: 'active', provisioners: [], provisioned_by: [] });
    });

    it('gives an organization created before tenant ids a null tenant_id', () => {
      const { tenant_id: _absent, ...before } = created.data as Extract<
        OrganizationEvent,
        { type: 'OrganizationCreated' }
      >['data'];
      const state = organizationDecider.evolve(organizationDecider.initialState(), { type: 'OrganizationCreated', data: before });
      expect(state).toMatchObject({ status: 'active', tenant_id: null });
    });

    it('folds creation, updates and deletion into the state', () => {
      const updated: OrganizationEvent = { type: 'OrganizationUpdated', data: { changes: { name: 'Acme Inc' }, at } };
      const state = [created, updated, deleted].reduce(organizationDecider.evolve, organizationDecider.initialState());
      expect(state).toMatchObject({
        status: 'deleted',
        name: 'Acme Inc',
        domain: 'acme-corp',
        environment: 'sandbox',
        inserted_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-03T00:00:00.000Z',
      });
    });
  });
});
