import { AggregateView, MemoryEventStore, MemoryReadModelStore } from '@sesame/platform';
import { organizationsView } from '../../organizations/projections/organizations.projection';
import { userMetakeysView } from '../../user-metakeys/projections/user-metakeys.projection';
import type { Tenant } from '../domain/user.decider';
import { usersView } from '../projections/users.projection';
import type { UsersEnv } from '../users.env';
import { unlimitedUsers } from '../plan-limit/user-limits';
import { createUser, deleteUser, updateUser } from './user.commands';

const tenant: Tenant = {
  organization_id: 'org-1',
  organization_domain: 'acme',
  allowed_email_domains: [],
  environment: 'sandbox',
};
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const taken = { error: { kind: 'fields', fields: { email: ['has already been taken'] }, reason: 'taken' } };

/**
 * The commands of a replica whose read model has not seen the writes yet (another replica made
 * them, or its projection lags): nothing is applied inline, so every rule must hold on the streams.
 */
function laggingReplica(): UsersEnv {
  const eventStore = new MemoryEventStore();
  const readModels = new MemoryReadModelStore();
  return {
    commandDeps: { eventStore },
    eventStore,
    metadata: () => metadata,
    view: new AggregateView(usersView, readModels, eventStore),
    organizations: { view: new AggregateView(organizationsView, readModels, eventStore) },
    metakeys: { eventStore, view: new AggregateView(userMetakeysView, readModels, eventStore) },
    limits: unlimitedUsers,
    now: () => new Date('2026-01-01T00:00:00.000Z'),
  };
}

describe('user emails stay unique whatever the read model says', () => {
  it('refuses to change an email to one another user holds, with a lagging read model', async () => {
    const env = laggingReplica();
    await createUser(env, tenant, { email: 'ada@acme.test' }, 'api', metadata);
    const grace = await createUser(env, tenant, { email: 'grace@acme.test' }, 'api', metadata);
    await expect(updateUser(env, tenant, grace.id, { email: 'ADA@acme.test' }, undefined, metadata)).rejects.toMatchObject(taken);
    await expect(createUser(env, tenant, { email: 'grace@acme.test' }, 'api', metadata)).rejects.toMatchObject(taken);
  });

  it('gives the old email back once changed, and reserves nothing for a refused change', async () => {
    const env = laggingReplica();
    const ada = await createUser(env, tenant, { email: 'ada@acme.test' }, 'api', metadata);
    await expect(updateUser(env, tenant, ada.id, { email: 'countess@acme.test' }, 'other-id', metadata)).rejects.toMatchObject({
      error: { fields: { id: ["can't be changed"] } },
    });
    await updateUser(env, tenant, ada.id, { email: 'lovelace@acme.test' }, undefined, metadata);
    expect((await createUser(env, tenant, { email: 'ada@acme.test' }, 'api', metadata)).email).toBe('ada@acme.test');
    expect((await createUser(env, tenant, { email: 'countess@acme.test' }, 'api', metadata)).email).toBe('countess@acme.test');
    await deleteUser(env, tenant, ada.id, 'api', metadata);
    expect((await createUser(env, tenant, { email: 'lovelace@acme.test' }, 'api', metadata)).email).toBe('lovelace@acme.test');
  });
});
