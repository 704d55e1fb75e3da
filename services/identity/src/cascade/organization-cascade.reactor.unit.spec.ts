import { randomUUID } from 'node:crypto';
import type { Environment, Organization, OrganizationSettings } from '@sesame/contracts';
import {
  AggregateView,
  MemoryEventStore,
  MemoryReadModelStore,
  ProjectionRunner,
  Aggregate,
  createLogger,
  handleCommand,
  reservationStream,
} from '@sesame/platform';
import type { CommandHandlerDeps, Commit, EventMetadata, Mailer, RecordedEvent } from '@sesame/platform';
import type { AdminsDeps } from '../admins/admins.deps';
import { adminsView } from '../admins/projections/admins.projection';
import type { GroupsDeps } from '../groups/groups.deps';
import { groupAggregate } from '../groups/commands/group.aggregate';
import { organizationAggregate } from '../organizations/commands/organization.aggregate';
import { adminAggregate } from '../admins/commands/admin.aggregate';
import { userAggregate } from '../users/commands/user.aggregate';
import { userMetakeyAggregate } from '../user-metakeys/commands/user-metakey.aggregate';
import { groupsView } from '../groups/projections/groups.projection';
import { organizationDecider } from '../organizations/domain/organization.decider';
import { organizationStream, organizationsView } from '../organizations/projections/organizations.projection';
import { userMetakeysView } from '../user-metakeys/projections/user-metakeys.projection';
import { createUser } from '../users/commands/user.commands';
import { emailKey } from '../users/domain/user.decider';
import type { Tenant } from '../users/domain/user.decider';
import { unlimitedUsers } from '../users/plan-limit/user-limits';
import { usersView } from '../users/projections/users.projection';
import type { UsersDeps } from '../users/users.deps';
import { organizationCascadeReactor } from './organization-cascade.reactor';

const metadata = (): EventMetadata => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });
const settings: Omit<OrganizationSettings, 'environments'> = {
  name: 'Acme',
  allowed_email_domains: [],
  allowed_authn_connections: ['sso'],
  color: null,
  icon_logo_url: null,
  inline_logo_url: null,
  locale: null,
  timezone: null,
  tenant_id: null,
};

/** The identity service's aggregates and reactor on in-memory stores. */
async function harness() {
  const eventStore = new MemoryEventStore();
  const readModels = new MemoryReadModelStore();
  const logger = createLogger('test', 'silent');
  const projections = new ProjectionRunner(eventStore, readModels, logger);
  const view = <D>(definition: D) =>
    projections.register(new AggregateView(definition as never, readModels, eventStore)) as AggregateView<any, any>;
  const organizations = { view: view(organizationsView), organizations: new Aggregate({ eventStore }, organizationAggregate) };
  const metakeys = { metakeys: new Aggregate({ eventStore }, userMetakeyAggregate), view: view(userMetakeysView) };
  const deps = <S>(): CommandHandlerDeps<S> => ({
    eventStore,
    afterCommit: (stream, result) =>
      projections.applyInline(stream, result.revision, result.state, { position: 0n, events: result.events }),
  });
  const users: UsersDeps = {
    users: new Aggregate(deps(), userAggregate),
    eventStore,
    metadata: () => metadata(),
    view: view(usersView),
    organizations,
    metakeys,
    limits: unlimitedUsers,
    now: () => new Date(),
  };
  const admins: AdminsDeps = {
    admins: new Aggregate(deps(), adminAggregate),
    metadata: () => metadata(),
    view: view(adminsView),
    organizations,
    mailer: {} as Mailer,
    messages: new Map(),
    onboardingUrl: 'http://x',
    times: { link_ttl_ms: 1, session_idle_ms: 1, session_max_ms: 1 },
    secureCookie: false,
    now: () => new Date(),
  };
  const groups: GroupsDeps = {
    groups: new Aggregate(deps(), groupAggregate),
    view: view(groupsView),
    metadata: () => metadata(),
    organizations,
    users,
    now: () => new Date(),
  };
  await projections.start();
  await projections.whenReady();
  const reactor = organizationCascadeReactor({
    eventStore,
    organizations,
    users,
    admins,
    groups,
    projections,
    logger,
    now: () => new Date(),
  });
  const seen: RecordedEvent[] = [];
  let delivered = 0;
  const subscription = eventStore.subscribeToAll({
    from: 0n,
    onCommit: async (commit: Commit) => {
      seen.push(...commit.events);
      await reactor(commit);
      delivered = Number(commit.position);
    },
  });
  const settled = async () => {
    for (;;) {
      const head = Number(await eventStore.headPosition());
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (delivered >= head && Number(await eventStore.headPosition()) === head) return;
    }
  };
  const createOrganization = async (environment: Environment = 'sandbox'): Promise<Tenant> => {
    const result = await handleCommand(
      deps(),
      organizationDecider,
      organizationStream(environment, 'acme'),
      {
        type: 'CreateOrganization',
        data: {
          id: randomUUID(),
          domain: 'acme',
          environment,
          settings: { ...settings, environments: [{ name: environment, status: 'up' }] },
          provisioners: [],
          at: new Date().toISOString(),
        },
      },
      { ...metadata(), environment },
    );
    const organization = result.state as unknown as Organization;
    return { organization_id: organization.id, organization_domain: 'acme', allowed_email_domains: [], environment };
  };
  const deleteOrganization = (environment: Environment = 'sandbox') =>
    handleCommand(
      deps(),
      organizationDecider,
      organizationStream(environment, 'acme'),
      { type: 'DeleteOrganization', data: { at: new Date().toISOString() } },
      { ...metadata(), environment },
    );
  return { eventStore, users, groups, seen, settled, createOrganization, deleteOrganization, stop: () => subscription.stop() };
}

describe('organization cascade reactor', () => {
  it('deletes the users and groups of a deleted organization, releasing their emails', async () => {
    const h = await harness();
    const tenant = await h.createOrganization();
    const user = await createUser(h.users, tenant, { email: 'a@acme.com' }, 'api', metadata());
    await h.groups.groups.handle(
      'g1',
      { type: 'CreateGroup', data: { tenant, id: 'g1', display_name: 'All', members: [user.id], at: new Date().toISOString() } },
      metadata(),
    );
    await h.deleteOrganization();
    await h.settled();
    expect(await h.users.view.documents.count({})).toBe(0);
    expect(await h.groups.view.documents.count({})).toBe(0);
    expect(
      h.seen.filter((event) => event.type === 'UserDeleted').map((event) => (event.data as { reason: string }).reason),
    ).toEqual(['organization_deleted']);
    const reservation = await h.eventStore.readStream(
      reservationStream('userEmail', emailKey(tenant.organization_id, 'sandbox', 'a@acme.com')),
    );
    expect(reservation.events.at(-1)?.type).toBe('UniqueValueReleased');
    await h.stop();
  });

  it('deletes only in the environment of the deleted organization: the other one of the same domain keeps its users and groups', async () => {
    const h = await harness();
    const sandbox = await h.createOrganization('sandbox');
    const production = await h.createOrganization('production');
    expect(production.organization_id).not.toBe(sandbox.organization_id);
    const doomed = await createUser(h.users, sandbox, { email: 'a@acme.com' }, 'api', metadata());
    const kept = await createUser(h.users, production, { email: 'a@acme.com' }, 'api', metadata());
    const at = new Date().toISOString();
    await h.groups.groups.handle(
      'g-production',
      { type: 'CreateGroup', data: { tenant: production, id: 'g-production', display_name: 'All', members: [kept.id], at } },
      metadata(),
    );
    await h.deleteOrganization('sandbox');
    await h.settled();
    expect(await h.users.view.documents.get(doomed.id)).toBeNull();
    expect(await h.users.view.documents.get(kept.id)).toMatchObject({ email: 'a@acme.com', __environment__: 'production' });
    expect(await h.groups.view.documents.get('g-production')).toMatchObject({ members: [kept.id] });
    expect(
      h.seen.filter((event) => event.type === 'UserDeleted').map((event) => (event.data as { user: { id: string } }).user.id),
    ).toEqual([doomed.id]);
    await h.stop();
  });

  it('deletes a user created under the organization after it was deleted (a race with the deletion)', async () => {
    const h = await harness();
    const tenant = await h.createOrganization();
    await h.createOrganization('production');
    await h.deleteOrganization();
    await h.settled();
    // The create handler found the organization live an instant before its deletion (the
    // production organization of the same domain is another one and does not keep it).
    const late = await createUser(h.users, tenant, { email: 'late@acme.com' }, 'api', metadata());
    await h.settled();
    expect(await h.users.view.documents.get(late.id)).toBeNull();
    expect(h.seen.filter((event) => event.type === 'UserDeleted')).toHaveLength(1);
    await h.stop();
  });

  it('leaves users of a live organization alone, and removes a deleted user from its groups', async () => {
    const h = await harness();
    const tenant = await h.createOrganization();
    const keep = await createUser(h.users, tenant, { email: 'keep@acme.com' }, 'api', metadata());
    const gone = await createUser(h.users, tenant, { email: 'gone@acme.com' }, 'api', metadata());
    await h.groups.groups.handle(
      'g1',
      {
        type: 'CreateGroup',
        data: { tenant, id: 'g1', display_name: 'All', members: [keep.id, gone.id], at: new Date().toISOString() },
      },
      metadata(),
    );
    await h.users.users.handle(
      gone.id,
      { type: 'DeleteUser', data: { tenant, reason: 'api', at: new Date().toISOString() } },
      metadata(),
    );
    await h.settled();
    expect(await h.users.view.documents.get(keep.id)).not.toBeNull();
    expect(await h.groups.view.documents.get('g1')).toMatchObject({ members: [keep.id] });
    await h.stop();
  });
});
