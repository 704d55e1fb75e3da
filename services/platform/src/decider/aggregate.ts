import type { AppError, TenantRef } from '@sesame/contracts';
import { catalogueError } from '@sesame/contracts';
import { ConcurrencyError } from '../event-store/event-store.port';
import type { DomainEvent, EventMetadata, EventStore, RecordedEvent } from '../event-store/event-store.port';
import type { CommandHandlerDeps, CommandResult } from './command-handler';
import { fail, fold } from './decider';
import { foldedStatesOf } from './folded-states';
import type { Decider } from './decider';
import { releaseUnique, reserveUnique } from './reservations';
import type { Reservation } from './reservations';
import { claimRevision } from './revision-claims';
import { tenantOfEvents, withTenant } from './tenant';
import type { RevisionClaim } from './revision-claims';

/** A kind of aggregate: its decider, and the stream that holds the aggregate of an id. */
export interface AggregateType<State, Command, Event extends DomainEvent> {
  decider: Decider<State, Command, Event>;
  stream(id: string): string;
  /**
   * Its `handle` commands claim the revision they write too, as `execute` steps do: for an
   * aggregate whose steps call other services and whose plain commands could otherwise land
   * between a step's check and its commit and make it fail after acting.
   */
  exclusive?: boolean;
}

/** An aggregate as its stream holds it now. */
export interface Loaded<State> {
  state: State;
  /** Revision of the stream's last event; -1 when the stream does not exist. */
  revision: number;
}

/** A unique value a command takes (a reservation stream), and the refusal it answers when another owner holds it. */
export interface UniqueClaim {
  reservation: Reservation;
  taken: AppError;
}

/**
 * A command whose effects reach beyond its own stream, run check → act → commit:
 * `check` refuses or holds on the loaded state with no effect at all; only then are the unique
 * values of `take` reserved and `act` calls the other services and answers the command, which the
 * decider turns into events on the same loaded state; they are appended with its revision as the
 * expected one. `check` must hold every refusal `decide` can make on that state (the expected
 * version included): `decide` then only says what happened.
 */
export interface Step<State, Command, Checked> {
  check(loaded: Loaded<State>): Checked | Promise<Checked>;
  /** Values reserved once the check holds, before acting; given back when nothing is committed. */
  take?(checked: Checked): UniqueClaim[];
  /** The calls to other services, once the check holds and the values are taken. */
  act(checked: Checked): Promise<Command>;
  /** Values given back once the command is committed. */
  release?(checked: Checked, committed: CommandResult<State>): Reservation[];
}

export interface HandleOptions<State> {
  /** The stream is expected not to exist yet (a fresh uuid): the first attempt does not read it. */
  newStream?: boolean;
  /**
   * The aggregate as the caller has just read it: the first attempt decides on it rather than
   * reading the stream again. A stale one fails its append on the revision and is read again, but
   * a refusal decided on it is answered as is: give only a state the caller checked the command on.
   */
  loaded?: Loaded<State>;
  /** Values the command takes on this state: reserved once `decide` accepts it, given back when nothing is committed. */
  take?(state: State): UniqueClaim[];
  /**
   * Something held outside the stream once `decide` accepts the command and its values are taken
   * (a place under a plan's limit), before the append; answers how to give it back when nothing is committed.
   */
  hold?(state: State): Promise<() => Promise<void>>;
  /** Values given back once the command is committed. */
  release?(before: State, after: State): Reservation[];
}

export interface AggregateDeps<State> extends CommandHandlerDeps<State> {
  /** How long a step waits for another one acting on the same aggregate before answering 409 conflict. */
  claimWaitMs?: number;
  /** How long a claim is its holder's before it is taken over (its holder crashed). */
  claimGraceMs?: number;
  now?(): number;
}

/**
 * A random pause before attempt `attempt` after a conflict (up to 10, 20, 40, then 80 ms): writers
 * that collided do not collide again at once, and a replica of the stream that answered a read a
 * few milliseconds behind has caught up. In a cluster run, two identity replicas creating redirect
 * URIs (one stream per environment) got 8 conflicts in 142 creations with 5 immediate attempts
 * (each read a follower's stale last commit or met the other replica's write), 1 in 145 with 5
 * paused ones; hence 8 attempts.
 */
const conflictPause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** Math.min(attempt - 1, 4)));

/** A stream holds only what its aggregate's decider decided: its recorded events are of the decider's event type. */
const eventsOf = <Event extends DomainEvent>(events: RecordedEvent[]) => events as RecordedEvent<Event>[];

/** The stream of the aggregate `id` as its decider wrote it: its events typed as the decider's. */
export async function readAggregateStream<State, Command, Event extends DomainEvent>(
  eventStore: EventStore,
  type: AggregateType<State, Command, Event>,
  id: string,
): Promise<{ revision: number; events: RecordedEvent<Event>[] }> {
  const { revision, events } = await eventStore.readStream(type.stream(id));
  return { revision, events: eventsOf<Event>(events) };
}

/**
 * The aggregate `id` as its stream holds it now, or as it was at revision `upTo` (a reaction to one
 * of its events). Now: folded onto the state this process last folded of the stream, from the
 * events appended since (`foldedStatesOf`); the state answered is frozen.
 */
export async function loadAggregate<State, Command, Event extends DomainEvent>(
  eventStore: EventStore,
  type: AggregateType<State, Command, Event>,
  id: string,
  options: { upTo?: number } = {},
): Promise<Loaded<State>> {
  const { upTo } = options;
  if (upTo !== undefined) {
    const events = (await readAggregateStream(eventStore, type, id)).events.filter((event) => event.revision <= upTo);
    return { revision: events.at(-1)?.revision ?? -1, state: fold(type.decider, events) };
  }
  const stream = type.stream(id);
  const states = foldedStatesOf(eventStore);
  const kept = states.get<State>(stream, type.decider);
  const read = await eventStore.readStream(stream, kept ? { fromRevision: kept.revision + 1 } : {});
  if (kept && read.revision === kept.revision) return kept;
  if (kept && read.revision > kept.revision) {
    const state = eventsOf<Event>(read.events).reduce(type.decider.evolve, kept.state);
    return { revision: read.revision, state: states.remember(stream, type.decider, read.revision, state) };
  }
  // No state kept, or one the stream no longer leads to (it is behind it): the whole stream.
  const whole = kept ? await eventStore.readStream(stream) : read;
  const state = fold(type.decider, eventsOf<Event>(whole.events));
  if (whole.revision === -1) {
    states.forget(stream);
    return { revision: -1, state };
  }
  return { revision: whole.revision, state: states.remember(stream, type.decider, whole.revision, state) };
}

/**
 * One attempt of a command once its aggregate is loaded: `check` refuses with no effect, `take`
 * names the values to reserve, `act` answers the events to append (and how to undo what it did
 * outside the stream when they are not), `release` the values to give back once committed.
 */
interface Plan<State, Event extends DomainEvent, Checked> {
  check(loaded: Loaded<State>): Checked | Promise<Checked>;
  take?(checked: Checked): UniqueClaim[];
  act(checked: Checked, loaded: Loaded<State>): Promise<{ events: Event[]; undo?: () => Promise<void> }>;
  release?(checked: Checked, committed: CommandResult<State, Event>): Reservation[];
}

/**
 * The one way a service changes an aggregate (DESIGN.md section 3, emmett's `handle`): load its
 * stream, decide on the loaded state, take the unique values, act on other services, append with
 * the loaded revision as the expected one, and on a conflict do it all again on the new state.
 * A refused command, or one refused on the new state, has had no effect: nothing is appended,
 * nothing is called, and what it reserved is given back.
 */
export class Aggregate<State, Command, Event extends DomainEvent> {
  constructor(
    private readonly deps: AggregateDeps<State>,
    readonly type: AggregateType<State, Command, Event>,
  ) {}

  /** The aggregate as its stream holds it now (read from the event store: fresh on every replica). */
  load(id: string): Promise<Loaded<State>> {
    return loadAggregate(this.deps.eventStore, this.type, id);
  }

  /**
   * A command decided on the aggregate's state alone (no call to another service): decided once
   * on the loaded state, then its values are taken and what it holds is held, then it is appended.
   */
  handle(
    id: string,
    command: Command,
    metadata: EventMetadata,
    options: HandleOptions<State> = {},
  ): Promise<CommandResult<State, Event>> {
    const { take, hold, release } = options;
    const plan: Plan<State, Event, { state: State; events: Event[] }> = {
      check: ({ state }) => ({ state, events: this.type.decider.decide(command, state) }),
      ...(take ? { take: ({ state }) => take(state) } : {}),
      act: async ({ state, events }) => (hold && events.length > 0 ? { events, undo: await hold(state) } : { events }),
      ...(release ? { release: ({ state }, committed) => release(state, committed.state) } : {}),
    };
    return this.run(id, plan, metadata, {
      newStream: options.newStream ?? false,
      exclusive: this.type.exclusive ?? false,
      ...(options.loaded ? { loaded: options.loaded } : {}),
    });
  }

  /**
   * A command that acts on other services: check → act → commit (see `Step`). It claims the
   * revision it writes before acting, so another step on the same aggregate waits for it rather
   * than act on the same state: the state checked is the state the commit follows.
   */
  execute<Checked>(
    id: string,
    step: Step<State, Command, Checked>,
    metadata: EventMetadata,
    options: Pick<HandleOptions<State>, 'newStream'> = {},
  ): Promise<CommandResult<State, Event>> {
    const { release } = step;
    const plan: Plan<State, Event, Checked> = {
      check: (loaded) => step.check(loaded),
      ...(step.take ? { take: step.take.bind(step) } : {}),
      act: async (checked, loaded) => ({ events: this.type.decider.decide(await step.act(checked), loaded.state) }),
      ...(release ? { release: (checked, committed) => release(checked, committed) } : {}),
    };
    return this.run(id, plan, metadata, { newStream: options.newStream ?? false, exclusive: true });
  }

  private async run<Checked>(
    id: string,
    plan: Plan<State, Event, Checked>,
    metadata: EventMetadata,
    mode: { newStream: boolean; exclusive: boolean; loaded?: Loaded<State> },
  ): Promise<CommandResult<State, Event>> {
    const attempts = this.deps.attempts ?? 8;
    const now = this.deps.now ?? Date.now;
    const timing = { deadline: now() + (this.deps.claimWaitMs ?? 5_000), graceMs: this.deps.claimGraceMs ?? 60_000, now };
    for (let attempt = 1; ;) {
      // A stream named by a fresh random id is new: skip reading it (a conflict reads and retries).
      const fresh = mode.newStream && attempt === 1;
      const given = attempt === 1 ? mode.loaded : undefined;
      const loaded = fresh ? { revision: -1, state: this.type.decider.initialState() } : (given ?? (await this.load(id)));
      const checked = await plan.check(loaded);
      const stream = this.type.stream(id);
      const claim =
        mode.exclusive && !fresh
          ? await claimRevision(this.deps.eventStore, stream, loaded.revision + 1, metadata, timing)
          : null;
      if (claim?.status === 'moved') continue;
      const result = await this.commit(stream, loaded, plan, checked, metadata, claim);
      if (result !== 'conflict') return result;
      if (attempt++ >= attempts) fail(catalogueError('conflict'));
      await conflictPause(attempt);
    }
  }

  /** The organization appended events belong to: as they name it, else as the aggregate's state after them (or before: a deletion forgets it) does. */
  private tenantOf(decided: Event[], before: State): TenantRef | undefined {
    const { decider } = this.type;
    return tenantOfEvents(decided, () => decider.tenant?.(decided.reduce(decider.evolve, before)) ?? decider.tenant?.(before));
  }

  /** Take, act, append; everything taken or held is given back unless the events are appended. */
  private async commit<Checked>(
    stream: string,
    loaded: Loaded<State>,
    plan: Plan<State, Event, Checked>,
    checked: Checked,
    metadata: EventMetadata,
    claim: RevisionClaim | null,
  ): Promise<CommandResult<State, Event> | 'conflict'> {
    const taken: Reservation[] = [];
    let undo: (() => Promise<void>) | undefined;
    const giveBack = async () => {
      await undo?.();
      for (const reservation of taken) await releaseUnique(this.deps.eventStore, reservation, metadata);
      if (claim?.status === 'claimed') await claim.release();
    };
    let appended;
    let decided: Event[];
    try {
      for (const { reservation, taken: refusal } of plan.take?.(checked) ?? []) {
        if ((await reserveUnique(this.deps.eventStore, reservation, metadata)) === 'taken') fail(refusal);
        taken.push(reservation);
      }
      ({ events: decided, undo } = await plan.act(checked, loaded));
      if (decided.length > 0)
        appended = await this.deps.eventStore.appendToStream(stream, decided, {
          expectedRevision: loaded.revision === -1 ? 'no_stream' : loaded.revision,
          metadata: withTenant(metadata, this.tenantOf(decided, loaded.state)),
        });
    } catch (error) {
      await giveBack();
      if (error instanceof ConcurrencyError && error.stream === stream) return 'conflict';
      throw error;
    }
    if (!appended) {
      await giveBack();
      return { state: loaded.state, revision: loaded.revision, events: [] };
    }
    const result = {
      state: decided.reduce(this.type.decider.evolve, loaded.state),
      revision: appended.nextRevision,
      events: eventsOf<Event>(appended.events),
    };
    await this.deps.afterCommit?.(stream, result);
    for (const reservation of plan.release?.(checked, result) ?? [])
      await releaseUnique(this.deps.eventStore, reservation, metadata);
    return result;
  }
}
