import { Aggregate, AggregateView, MemoryEventStore, MemoryReadModelStore } from '@sesame/platform';
import { organizationKey, organizationsView } from '../../organizations/projections/organizations.projection';
import type { OrganizationSettings } from '@sesame/contracts';
import { resolveTenant } from '../../tenancy/tenant';
import { userMetakeysView } from '../../user-metakeys/projections/user-metakeys.projection';
import type { Tenant } from '../domain/user.decider';
import { usersView } from '../projections/users.projection';
import type { UsersDeps } from '../users.deps';
import { unlimitedUsers } from '../plan-limit/user-limits';
import { environmentCount, usersCounted } from '../plan-limit/user-seats';
import { userMetakeyAggregate } from '../../user-metakeys/commands/user-metakey.aggregate';
import { userAggregate } from './user.aggregate';
import { organizationAggregate } from '../../organizations/commands/organization.aggregate';
import { createUser, deleteUser, updateUser } from './user.commands';

const tenant: Tenant = {
  organization_id: 'org-1',
  organization_domain: 'acme',
  allowed_email_domains: [],
  environment: 'sandbox',
};
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const organizationSettings: OrganizationSettings = {
  name: 'Beta',
  allowed_email_domains: [],
  allowed_authn_connections: ['sso'],
  color: null,
  icon_logo_url: null,
  inline_logo_url: null,
  locale: null,
  timezone: null,
  tenant_id: null,
  environments: [{ name: 'sandbox', status: 'up' }],
};
const taken = { error: { kind: 'fields', fields: { email: ['has already been taken'] }, reason: 'taken' } };

/**
 * The commands of a replica whose read model has not seen the writes yet (another replica made
 * them, or its projection lags): nothing is applied inline, so every rule must hold on the streams.
 */
function laggingReplica(limits = unlimitedUsers): UsersDeps {
  const eventStore = new MemoryEventStore();
  const readModels = new MemoryReadModelStore();
  return {
    users: new Aggregate({ eventStore }, userAggregate),
    eventStore,
    metadata: () => metadata,
    view: new AggregateView(usersView, readModels, eventStore),
    organizations: {
      view: new AggregateView(organizationsView, readModels, eventStore),
      organizations: new Aggregate({ eventStore }, organizationAggregate),
    },
    metakeys: {
      metakeys: new Aggregate({ eventStore }, userMetakeyAggregate),
      view: new AggregateView(userMetakeysView, readModels, eventStore),
    },
    limits,
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  };
}

describe('user emails stay unique whatever the read model says', () => {
  it("finds an organization its read model has not seen yet (created through another replica), by the organization's stream", async () => {
    const deps = laggingReplica();
    await expect(resolveTenant(deps.organizations, 'beta', 'sandbox')).rejects.toMatchObject({
      error: { kind: 'error', code: 'resource_not_found' },
    });
    const settings = { ...organizationSettings, allowed_email_domains: ['beta.example'] };
    const data = { id: 'org-beta', domain: 'beta', environment: 'sandbox' as const, settings, provisioners: [], at: 't' };
    await deps.organizations.organizations.handle(
      organizationKey('sandbox', 'beta'),
      { type: 'CreateOrganization', data },
      metadata,
    );

    expect(await resolveTenant(deps.organizations, 'beta', 'sandbox')).toEqual({
      organization_id: 'org-beta',
      organization_domain: 'beta',
      allowed_email_domains: ['beta.example'],
      environment: 'sandbox',
    });
    // The other environment's organization of the same domain is another one.
    await expect(resolveTenant(deps.organizations, 'beta', 'production')).rejects.toMatchObject({
      error: { kind: 'error', code: 'resource_not_found' },
    });
  });

  it('refuses to change an email to one another user holds, with a lagging read model', async () => {
    const deps = laggingReplica();
    await createUser(deps, tenant, { email: 'ada@acme.test' }, 'api', metadata);
    const grace = await createUser(deps, tenant, { email: 'grace@acme.test' }, 'api', metadata);
    await expect(updateUser(deps, tenant, grace.id, { email: 'ADA@acme.test' }, undefined, metadata)).rejects.toMatchObject(
      taken,
    );
    await expect(createUser(deps, tenant, { email: 'grace@acme.test' }, 'api', metadata)).rejects.toMatchObject(taken);
  });

  it('gives the old email back once changed, and reserves nothing for a refused change', async () => {
    const deps = laggingReplica();
    const ada = await createUser(deps, tenant, { email: 'ada@acme.test' }, 'api', metadata);
    await expect(updateUser(deps, tenant, ada.id, { email: 'countess@acme.test' }, 'other-id', metadata)).rejects.toMatchObject({
      error: { fields: { id: ["can't be changed"] } },
    });
    await updateUser(deps, tenant, ada.id, { email: 'lovelace@acme.test' }, undefined, metadata);
    expect((await createUser(deps, tenant, { email: 'ada@acme.test' }, 'api', metadata)).email).toBe('ada@acme.test');
    expect((await createUser(deps, tenant, { email: 'countess@acme.test' }, 'api', metadata)).email).toBe('countess@acme.test');
    await deleteUser(deps, tenant, ada.id, 'api', metadata);
    expect((await createUser(deps, tenant, { email: 'lovelace@acme.test' }, 'api', metadata)).email).toBe('lovelace@acme.test');
  });
});

describe('creating a user under a plan limit', () => {
  const limits = { environments: { sandbox: 2, production: null }, organizations: {} };
  const used = (deps: UsersDeps) =>
    usersCounted({ eventStore: deps.eventStore, users: deps.view.documents, limits }, environmentCount(limits, 'sandbox'));

  it('takes a place only for a user it creates: a refused one (rules, email taken) takes none, a full plan keeps no email', async () => {
    const deps = laggingReplica(limits);
    await createUser(deps, tenant, { email: 'ada@acme.test' }, 'api', metadata);
    await expect(createUser(deps, tenant, { email: 'ada@acme.test' }, 'api', metadata)).rejects.toMatchObject(taken);
    await expect(
      createUser(deps, { ...tenant, allowed_email_domains: ['acme.test'] }, { email: 'x@elsewhere.test' }, 'api', metadata),
    ).rejects.toMatchObject({ error: { kind: 'fields' } });
    expect(await used(deps)).toBe(1);
    const grace = await createUser(deps, tenant, { email: 'grace@acme.test' }, 'api', metadata);
    await expect(createUser(deps, tenant, { email: 'hopper@acme.test' }, 'api', metadata)).rejects.toMatchObject({
      error: { code: 'user_limit_reached' },
    });
    expect(await used(deps)).toBe(2);
    await deleteUser(deps, tenant, grace.id, 'api', metadata);
    expect((await createUser(deps, tenant, { email: 'hopper@acme.test' }, 'api', metadata)).email).toBe('hopper@acme.test');
    expect(await used(deps)).toBe(2);
  });
});
