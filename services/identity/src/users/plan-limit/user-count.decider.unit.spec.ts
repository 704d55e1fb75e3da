import { DomainError, MemoryEventStore, fold } from '@sesame/platform';
import type { EventStore } from '@sesame/platform';
import type { Tenant } from '../domain/user.decider';
import { userCountDecider } from './user-count.decider';
import type { UserCountCommand, UserCountEvent, UserCountState } from './user-count.decider';
import { parseOrganizationLimits } from './user-limits';
import { countNewUser, countedScopes, environmentCount, uncountUser, usageOf } from './user-seats';
import type { UserCountDeps } from './user-seats';

const given = (events: UserCountEvent[]): UserCountState => fold(userCountDecider, events);
const count = (limit: number | null, existing = 0): UserCountCommand => ({
  type: 'CountUser',
  data: { user_id: 'u1', limit, existing },
});
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as DomainError).error;
  }
  return null;
};
const limitReached = { kind: 'error', code: 'user_limit_reached' };

describe('user count decider', () => {
  it('starts a new counter at the users already there, then counts the new one', () => {
    expect(userCountDecider.decide(count(5, 3), given([]))).toEqual([
      { type: 'UserCountStarted', data: { count: 3 } },
      { type: 'UserCounted', data: { user_id: 'u1' } },
    ]);
  });

  it('counts a user while there is room, whatever the read model says once started', () => {
    const state = given([{ type: 'UserCountStarted', data: { count: 1 } }]);
    expect(userCountDecider.decide(count(2, 99), state)).toEqual([{ type: 'UserCounted', data: { user_id: 'u1' } }]);
  });

  it('refuses a user over the limit with 403 user_limit_reached', () => {
    const state = given([
      { type: 'UserCountStarted', data: { count: 1 } },
      { type: 'UserCounted', data: { user_id: 'u0' } },
    ]);
    expect(refusal(() => userCountDecider.decide(count(2), state))).toEqual(limitReached);
    expect(refusal(() => userCountDecider.decide(count(0), given([])))).toEqual(limitReached);
    expect(refusal(() => userCountDecider.decide(count(3, 3), given([])))).toEqual(limitReached);
  });

  it('counts without a limit', () => {
    expect(userCountDecider.decide(count(null, 1_000), given([]))).toHaveLength(2);
  });

  it('gives a place back on deletion, and frees a place for the next user', () => {
    const full = given([{ type: 'UserCountStarted', data: { count: 2 } }]);
    const events = userCountDecider.decide({ type: 'UncountUser', data: { user_id: 'u1' } }, full);
    expect(events).toEqual([{ type: 'UserUncounted', data: { user_id: 'u1' } }]);
    expect(userCountDecider.decide(count(2), events.reduce(userCountDecider.evolve, full))).toHaveLength(1);
  });

  it('uncounts nothing on a counter not started (it starts from the read model) or at zero', () => {
    const uncount: UserCountCommand = { type: 'UncountUser', data: { user_id: 'u1' } };
    expect(userCountDecider.decide(uncount, given([]))).toEqual([]);
    expect(userCountDecider.decide(uncount, given([{ type: 'UserCountStarted', data: { count: 0 } }]))).toEqual([]);
  });
});

describe('organization limits setting', () => {
  it('reads domain=number entries', () => {
    expect(parseOrganizationLimits('acme.com=10, Beta.io = 5,')).toEqual({ 'acme.com': 10, 'beta.io': 5 });
    expect(parseOrganizationLimits('')).toEqual({});
  });

  it('refuses malformed entries and a domain given twice', () => {
    expect(parseOrganizationLimits('acme.com')).toBeNull();
    expect(parseOrganizationLimits('acme.com=-1')).toBeNull();
    expect(parseOrganizationLimits('acme.com=1,ACME.com=2')).toBeNull();
  });
});

describe('user counters on the event store', () => {
  const tenant: Tenant = {
    organization_id: 'o1',
    organization_domain: 'acme.test',
    allowed_email_domains: [],
    environment: 'sandbox',
  };
  const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
  const depsWith = (environmentLimit: number | null, organizationLimit?: number): UserCountDeps => ({
    eventStore: new MemoryEventStore(),
    users: { count: async () => 0 },
    limits: {
      environments: { sandbox: environmentLimit, production: null },
      organizations: organizationLimit === undefined ? {} : ({ 'acme.test': organizationLimit } as Record<string, number>),
    },
  });

  it('lets exactly one of two creations racing for the last place in', async () => {
    const deps = depsWith(3);
    await countNewUser(deps, tenant, 'a', metadata);
    await countNewUser(deps, tenant, 'b', metadata);
    const results = await Promise.allSettled([
      countNewUser(deps, tenant, 'c', metadata),
      countNewUser(deps, tenant, 'd', metadata),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected');
    expect((rejected?.reason as DomainError).error).toEqual(limitReached);
    expect(await usageOf(deps, environmentCount(deps.limits, 'sandbox'))).toEqual({ limit: 3, used: 3, remaining: 0 });
  });

  it('lets exactly as many users in as there are places, out of eight racing creations', async () => {
    const deps = depsWith(3);
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const results = await Promise.allSettled(ids.map((id) => countNewUser(deps, tenant, id, metadata)));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(await usageOf(deps, environmentCount(deps.limits, 'sandbox'))).toEqual({ limit: 3, used: 3, remaining: 0 });
  });

  /** Another replica: the same store seen through another object, so with its own queue and cache. */
  const replicaOf = (deps: UserCountDeps): UserCountDeps => {
    const store = deps.eventStore;
    const eventStore = {
      readStream: (stream: string) => store.readStream(stream),
      appendToStream: (...args: Parameters<EventStore['appendToStream']>) => store.appendToStream(...args),
    } as EventStore;
    return { ...deps, eventStore };
  };

  it('lets exactly as many users in as there are places when two replicas race (expected revisions)', async () => {
    const deps = depsWith(3);
    const other = replicaOf(deps);
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd', 'e', 'f'].map((id, i) => countNewUser(i % 2 ? other : deps, tenant, id, metadata)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(await usageOf(deps, environmentCount(deps.limits, 'sandbox'))).toEqual({ limit: 3, used: 3, remaining: 0 });
  });

  it('reads the counter again before refusing: a place another replica freed is taken', async () => {
    const deps = depsWith(1);
    await countNewUser(deps, tenant, 'a', metadata);
    await uncountUser(replicaOf(deps), tenant, 'a', metadata);
    await countNewUser(deps, tenant, 'b', metadata);
    await expect(countNewUser(deps, tenant, 'c', metadata)).rejects.toThrow(DomainError);
  });

  it('keeps no counter without a limit: the read model tells the users', async () => {
    const deps = { ...depsWith(null), users: { count: async () => 42 } };
    await countNewUser(deps, tenant, 'a', metadata);
    expect(countedScopes(deps.limits, tenant)).toEqual([]);
    expect(await deps.eventStore.readStream('userCount-sandbox:unlimited')).toMatchObject({ revision: -1 });
    expect(await usageOf(deps, environmentCount(deps.limits, 'sandbox'))).toEqual({ limit: null, used: 42, remaining: null });
  });

  it('leaves nothing counted when the organization refuses, and counts again after a deletion', async () => {
    const deps = depsWith(10, 1);
    const giveBack = await countNewUser(deps, tenant, 'a', metadata);
    await expect(countNewUser(deps, tenant, 'b', metadata)).rejects.toThrow(DomainError);
    const [environment, organization] = countedScopes(deps.limits, tenant);
    expect(await usageOf(deps, environment!)).toEqual({ limit: 10, used: 1, remaining: 9 });
    expect(await usageOf(deps, organization!)).toEqual({ limit: 1, used: 1, remaining: 0 });
    await giveBack();
    await countNewUser(deps, tenant, 'b', metadata);
    await uncountUser(deps, tenant, 'b', metadata);
    expect(await usageOf(deps, organization!)).toEqual({ limit: 1, used: 0, remaining: 1 });
  });
});
