import type { Environment, OrganizationSettings } from '@sesame/contracts';
import { Aggregate, MemoryEventStore, reservationStream } from '@sesame/platform';
import { domainFromName } from '../domain/domain-slug';
import type { OrganizationCommand, OrganizationState } from '../domain/organization.decider';
import type { StoredOrganization } from '../organizations.deps';
import { organizationStream } from '../projections/organizations.projection';
import { organizationAggregate } from './organization.aggregate';
import { runOrganizationCommand, tenantIdClaims, tenantIdReservation } from './organization.commands';

const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const at = metadata.occurredAt;
const taken = { error: { kind: 'fields', fields: { tenant_id: ['has already been taken'] }, reason: 'taken' } };

const settings = (name: string, environment: Environment, tenant_id: string | null): OrganizationSettings => ({
  name,
  allowed_email_domains: [],
  allowed_authn_connections: ['sso'],
  color: null,
  icon_logo_url: null,
  inline_logo_url: null,
  locale: null,
  timezone: null,
  tenant_id,
  environments: [{ name: environment, status: 'up' }],
});

const createCommand = (name: string, environment: Environment, tenantId: string | null): OrganizationCommand => ({
  type: 'CreateOrganization',
  data: {
    id: '2f1f9f6e-6a5e-4b8a-9a53-2a0b5b0d5c11',
    domain: domainFromName(name) as string,
    environment,
    settings: settings(name, environment, tenantId),
    provisioners: [],
    at,
  },
});
const updateCommand = (tenant_id: string | null): OrganizationCommand => ({
  type: 'UpdateOrganization',
  data: { changes: { tenant_id }, at },
});
const deleteCommand: OrganizationCommand = { type: 'DeleteOrganization', data: { at } };

/** The organization commands on a fresh event store; nothing read from a read model. */
function organizations() {
  const eventStore = new MemoryEventStore();
  const deps = { organizations: new Aggregate({ eventStore }, organizationAggregate) };
  return {
    eventStore,
    create: (name: string, tenantId: string | null, environment: Environment = 'sandbox') =>
      runOrganizationCommand(
        deps,
        environment,
        domainFromName(name) as string,
        createCommand(name, environment, tenantId),
        metadata,
      ),
    update: (name: string, tenantId: string | null) =>
      runOrganizationCommand(deps, 'sandbox', domainFromName(name) as string, updateCommand(tenantId), metadata),
    remove: (name: string) => runOrganizationCommand(deps, 'sandbox', domainFromName(name) as string, deleteCommand, metadata),
  };
}

describe('tenantIdClaims', () => {
  const empty: OrganizationState = { status: 'empty' };
  const active = (tenant_id: string | null): StoredOrganization => ({
    status: 'active',
    id: 'id',
    domain: 'acme',
    environment: 'sandbox',
    inserted_at: at,
    updated_at: at,
    provisioners: [],
    provisioned_by: [],
    domain_verifications: [],
    ...settings('Acme', 'sandbox', tenant_id),
  });
  const deleted: OrganizationState = { ...active('crm-1'), status: 'deleted' };
  const reservation = (tenantId: string) => tenantIdReservation('sandbox', tenantId, 'acme');
  const claims = (command: OrganizationCommand) => tenantIdClaims('sandbox', 'acme', command);

  it('given no organization, when one is created with a tenant_id, takes it in its environment', () => {
    expect(claims(createCommand('Acme', 'sandbox', 'crm-1')).take(empty)).toEqual([
      {
        reservation: reservation('crm-1'),
        taken: { kind: 'fields', fields: { tenant_id: ['has already been taken'] }, reason: 'taken' },
      },
    ]);
    expect(reservation('crm-1')).toEqual({
      kind: 'organizationTenantId',
      value: 'sandbox:crm-1',
      owner: organizationStream('sandbox', 'acme'),
    });
  });

  it('given no organization, when one is created without a tenant_id, takes nothing', () =>
    expect(claims(createCommand('Acme', 'sandbox', null)).take(empty)).toEqual([]));

  it('given an organization holding a tenant_id, when it asks for the same one, takes nothing and gives nothing back', () => {
    expect(claims(updateCommand('crm-1')).take(active('crm-1'))).toEqual([]);
    expect(claims(updateCommand('crm-1')).release(active('crm-1'), active('crm-1'))).toEqual([]);
  });

  it('given an organization holding a tenant_id, when it changes it, takes the new one and gives the old one back', () => {
    expect(
      claims(updateCommand('crm-2'))
        .take(active('crm-1'))
        .map((claim) => claim.reservation),
    ).toEqual([reservation('crm-2')]);
    expect(claims(updateCommand('crm-2')).release(active('crm-1'), active('crm-2'))).toEqual([reservation('crm-1')]);
  });

  it('given an organization holding a tenant_id, when it removes it or is deleted, gives it back', () => {
    expect(claims(updateCommand(null)).take(active('crm-1'))).toEqual([]);
    expect(claims(updateCommand(null)).release(active('crm-1'), active(null))).toEqual([reservation('crm-1')]);
    expect(claims(deleteCommand).take(active('crm-1'))).toEqual([]);
    expect(claims(deleteCommand).release(active('crm-1'), deleted)).toEqual([reservation('crm-1')]);
  });

  it('given an update that does not name the tenant_id, takes and gives back nothing', () => {
    const rename: OrganizationCommand = { type: 'UpdateOrganization', data: { changes: { name: 'Acme Inc' }, at } };
    expect(claims(rename).take(active('crm-1'))).toEqual([]);
    expect(claims(rename).release(active('crm-1'), active('crm-1'))).toEqual([]);
  });
});

describe('organization tenant_id stays unique in its environment, on the streams', () => {
  it('refuses a tenant_id another organization of the environment holds, writing nothing', async () => {
    const store = organizations();
    expect((await store.create('Acme', 'crm-1')).tenant_id).toBe('crm-1');
    await expect(store.create('Globex', 'crm-1')).rejects.toMatchObject(taken);
    expect((await store.eventStore.readStream(organizationStream('sandbox', 'globex'))).revision).toBe(-1);
  });

  it('lets the other environment use the same tenant_id', async () => {
    const store = organizations();
    await store.create('Acme', 'crm-1', 'sandbox');
    expect((await store.create('Globex', 'crm-1', 'production')).tenant_id).toBe('crm-1');
  });

  it('lets exactly one of concurrent creates of different organizations take a tenant_id', async () => {
    const store = organizations();
    const outcomes = await Promise.allSettled(['Acme', 'Globex', 'Initech'].map((name) => store.create(name, 'crm-1')));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  });

  it('keeps the tenant_id of the winner of concurrent creates of the same organization', async () => {
    const store = organizations();
    const outcomes = await Promise.allSettled([store.create('Acme', 'crm-1'), store.create('Acme', 'crm-1')]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    await expect(store.create('Globex', 'crm-1')).rejects.toMatchObject(taken);
    const reservation = await store.eventStore.readStream(reservationStream('organizationTenantId', 'sandbox:crm-1'));
    expect(reservation.events.at(-1)?.type).toBe('UniqueValueReserved');
  });

  it('keeps the tenant_id through concurrent updates asking for it', async () => {
    const store = organizations();
    await store.create('Acme', null);
    await Promise.all([store.update('Acme', 'crm-1'), store.update('Acme', 'crm-1')]);
    await expect(store.create('Globex', 'crm-1')).rejects.toMatchObject(taken);
  });

  it('gives a tenant_id back when it changes, is removed or its organization is deleted', async () => {
    const store = organizations();
    await store.create('Acme', 'crm-1');
    await expect(store.create('Globex', 'crm-2')).resolves.toMatchObject({ tenant_id: 'crm-2' });
    await expect(store.update('Acme', 'crm-2')).rejects.toMatchObject(taken);
    await store.update('Acme', 'crm-3');
    await expect(store.create('Initech', 'crm-1')).resolves.toMatchObject({ tenant_id: 'crm-1' });
    await store.update('Acme', null);
    await expect(store.create('Hooli', 'crm-3')).resolves.toMatchObject({ tenant_id: 'crm-3' });
    await store.remove('Hooli');
    await expect(store.create('Umbrella', 'crm-3')).resolves.toMatchObject({ tenant_id: 'crm-3' });
  });
});
