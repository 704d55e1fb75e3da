import type { EventStore } from '../event-store/event-store.port';

interface Folded {
  /** The decider that folded it: a stream is only ever folded by one, but a state is never handed to another. */
  decider: object;
  revision: number;
  state: unknown;
}

/**
 * The aggregate states this process last folded, by stream (in-memory snapshots): a load reads the
 * stream from the revision after the one kept and folds only the events appended since, so it
 * costs the new events rather than the aggregate's whole history (an email's sign-in attempts, a
 * user a directory patches every day). Every load still asks the store for the stream's last
 * commit, so a state is never staler than a read without them. Kept states are deeply frozen:
 * deciders evolve a state into a new one, and code that changed a kept state in place throws
 * instead of changing what the next load folds onto. Least recently used first out.
 */
export class FoldedStates {
  private readonly states = new Map<string, Folded>();

  constructor(private readonly maxStreams = 10_000) {}

  get<State>(stream: string, decider: object): { revision: number; state: State } | undefined {
    const folded = this.states.get(stream);
    if (!folded || folded.decider !== decider) return undefined;
    // Used again: last out.
    this.states.delete(stream);
    this.states.set(stream, folded);
    return { revision: folded.revision, state: folded.state as State };
  }

  /** Keeps `state` (frozen) as the stream's at `revision`; answers it. */
  remember<State>(stream: string, decider: object, revision: number, state: State): State {
    this.states.delete(stream);
    this.states.set(stream, { decider, revision, state: deepFreeze(state) });
    if (this.states.size > this.maxStreams) this.states.delete(this.states.keys().next().value as string);
    return state;
  }

  forget(stream: string): void {
    this.states.delete(stream);
  }
}

const perStore = new WeakMap<EventStore, FoldedStates>();

/** The states folded from `eventStore`'s streams in this process (one set per store instance). */
export function foldedStatesOf(eventStore: EventStore): FoldedStates {
  let states = perStore.get(eventStore);
  if (!states) perStore.set(eventStore, (states = new FoldedStates()));
  return states;
}

/** Freezes `value` and everything it holds; parts already frozen (shared with an earlier kept state) are not walked again. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || ArrayBuffer.isView(value)) return value;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  return value;
}
