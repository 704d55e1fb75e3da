import { catalogueError } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { ConcurrencyError, KeyedMutex, fail, loadAggregate, streamName } from '@sesame/platform';
import type { AggregateType, EventMetadata, EventStore, Filter } from '@sesame/platform';
import { scopeKey } from '../domain/user.decider';
import type { Tenant } from '../domain/user.decider';
import { userCountDecider } from './user-count.decider';
import type { UserCountCommand, UserCountEvent, UserCountState } from './user-count.decider';
import type { UserLimits } from './user-limits';

/** What counting users needs: the store of the counter streams, the users read model and the limits. */
export interface UserCountDeps {
  eventStore: EventStore;
  users: { count(filter: Filter): Promise<number> };
  limits: UserLimits;
}

/** One counted scope: its counter stream, its limit and the read-model filter of its users. */
interface CountedScope {
  stream: string;
  limit: number | null;
  users: Filter;
}

/** Appends racing on a counter are retried on its new revision; this many without a win is 409 `conflict`. */
const attempts = 30;

export const userCountStreamCategory = 'userCount';

/**
 * A limited scope's counter stream is named after its limit too: a new limit (or one set again
 * after a time without it, when no counter was kept) starts a new counter from the read model.
 */
const counterStream = (scope: string, limit: number | null) =>
  streamName(userCountStreamCategory, `${scope}:${limit ?? 'unlimited'}`);

/** The counter of all the users of an environment. */
export const environmentCount = (limits: UserLimits, environment: Environment): CountedScope => ({
  stream: counterStream(environment, limits.environments[environment]),
  limit: limits.environments[environment],
  users: { __environment__: environment },
});

/** The counter of the users of one organization in one environment. */
export const organizationCount = (
  limits: UserLimits,
  tenant: Pick<Tenant, 'organization_id' | 'organization_domain' | 'environment'>,
): CountedScope => {
  const limit = limits.organizations[tenant.organization_domain.toLowerCase()] ?? null;
  const scope = scopeKey(tenant.organization_id, tenant.environment);
  return { stream: counterStream(scope, limit), limit, users: { scope } };
};

/**
 * The scopes a user takes a place in: its environment's, then its organization's, those with a
 * limit only (without one nothing is counted, so creating users costs nothing more).
 */
export const countedScopes = (limits: UserLimits, tenant: Tenant): CountedScope[] =>
  [environmentCount(limits, tenant.environment), organizationCount(limits, tenant)].filter((scope) => scope.limit !== null);

/** A counter, named by its stream (`counterStream`). */
const userCounter: AggregateType<UserCountState, UserCountCommand, UserCountEvent> = {
  decider: userCountDecider,
  stream: (stream) => stream,
};

const load = (deps: UserCountDeps, scope: CountedScope) => loadAggregate(deps.eventStore, userCounter, scope.stream);

/** The users a scope counts now: its counter, or the read model's number before the counter starts (or without a limit). */
export async function usersCounted(deps: UserCountDeps, scope: CountedScope): Promise<number> {
  if (scope.limit === null) return deps.users.count(scope.users);
  const { state } = await load(deps, scope);
  return state.started ? state.count : deps.users.count(scope.users);
}

/** A short random pause after a lost race, longer each time, so that racing creations spread out. */
const backOff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * (attempt + 1)));

/**
 * What this process knows of each counter: its state after its own last append, and a queue per
 * counter, so that the creations of one replica wait their turn instead of racing each other
 * (the expected revision still settles races between replicas). Per event store.
 */
interface CounterCache {
  queue: KeyedMutex;
  known: Map<string, { revision: number; state: UserCountState }>;
}
const caches = new WeakMap<EventStore, CounterCache>();
function cacheOf(eventStore: EventStore): CounterCache {
  const cache = caches.get(eventStore) ?? { queue: new KeyedMutex(), known: new Map() };
  caches.set(eventStore, cache);
  return cache;
}

/**
 * Decides on the counter and appends with its revision as the expected one; a lost race (another
 * replica wrote) reads the stream again. The state this process last wrote is used without a
 * read, but a refusal is only answered on the state read from the stream.
 */
async function apply(
  deps: UserCountDeps,
  scope: CountedScope,
  command: (existing: () => Promise<number>) => Promise<UserCountCommand>,
  metadata: EventMetadata,
) {
  const cache = cacheOf(deps.eventStore);
  await cache.queue.run(scope.stream, async () => {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const cached = cache.known.get(scope.stream);
      const { revision, state } = cached ?? (await load(deps, scope));
      cache.known.delete(scope.stream);
      let decided: UserCountEvent[];
      try {
        decided = userCountDecider.decide(await command(() => deps.users.count(scope.users)), state);
      } catch (error) {
        if (cached) continue;
        throw error;
      }
      if (decided.length === 0) return;
      try {
        const appended = await deps.eventStore.appendToStream(scope.stream, decided, {
          expectedRevision: revision === -1 ? 'no_stream' : revision,
          metadata,
        });
        cache.known.set(scope.stream, { revision: appended.nextRevision, state: decided.reduce(userCountDecider.evolve, state) });
        return;
      } catch (error) {
        if (!(error instanceof ConcurrencyError)) throw error;
      }
      await backOff(attempt);
    }
    fail(catalogueError('conflict'));
  });
}

const count = (deps: UserCountDeps, scope: CountedScope, userId: string, metadata: EventMetadata) =>
  apply(
    deps,
    scope,
    async (existing) => ({ type: 'CountUser', data: { user_id: userId, limit: scope.limit, existing: await existing() } }),
    metadata,
  );

const uncount = (deps: UserCountDeps, scope: CountedScope, userId: string, metadata: EventMetadata) =>
  apply(deps, scope, async () => ({ type: 'UncountUser', data: { user_id: userId } }), metadata);

/**
 * Counts a user about to be created in its environment and its organization, or refuses it
 * with 403 `user_limit_reached` when either is full (nothing stays counted then). Answers the
 * function that gives the places back when the user is not created after all.
 */
export async function countNewUser(
  deps: UserCountDeps,
  tenant: Tenant,
  userId: string,
  metadata: EventMetadata,
): Promise<() => Promise<void>> {
  const counted: CountedScope[] = [];
  try {
    for (const scope of countedScopes(deps.limits, tenant)) {
      await count(deps, scope, userId, metadata);
      counted.push(scope);
    }
  } catch (error) {
    for (const scope of counted) await uncount(deps, scope, userId, metadata);
    throw error;
  }
  return () => uncountUser(deps, tenant, userId, metadata);
}

/** Gives back the places of a deleted user. */
export async function uncountUser(deps: UserCountDeps, tenant: Tenant, userId: string, metadata: EventMetadata): Promise<void> {
  for (const scope of countedScopes(deps.limits, tenant)) await uncount(deps, scope, userId, metadata);
}

/** Limit, users and remaining places of a scope (null limit and remaining: unlimited). */
export async function usageOf(deps: UserCountDeps, scope: CountedScope) {
  const used = await usersCounted(deps, scope);
  return { limit: scope.limit, used, remaining: scope.limit === null ? null : Math.max(0, scope.limit - used) };
}

export type UserUsage = Awaited<ReturnType<typeof usageOf>>;
