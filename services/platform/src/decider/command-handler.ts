import { catalogueError } from '@sesame/contracts';
import { ConcurrencyError } from '../event-store/event-store.port';
import type { DomainEvent, EventMetadata, EventStore, RecordedEvent } from '../event-store/event-store.port';
import { DomainError, fold } from './decider';
import type { Decider } from './decider';

export interface CommandResult<State> {
  state: State;
  /** Revision of the stream after the command (-1: the stream still does not exist). */
  revision: number;
  events: RecordedEvent[];
}

/** Called after a successful append with the new state, e.g. to apply projections inline. */
export type AfterCommit<State> = (stream: string, result: CommandResult<State>) => Promise<void>;

export interface CommandHandlerDeps<State> {
  eventStore: EventStore;
  afterCommit?: AfterCommit<State>;
  /** Attempts on a concurrency conflict before answering 409 conflict. */
  attempts?: number;
}

export interface HandleCommandOptions {
  /** The stream is expected not to exist yet (a fresh uuid): the first attempt does not read it. */
  newStream?: boolean;
}

/**
 * Load, decide, append with the expected revision, retry on conflict (DESIGN.md section 3).
 * A command that decides no events appends nothing and answers the current state.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  deps: CommandHandlerDeps<State>,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  metadata: EventMetadata,
  options: HandleCommandOptions = {},
): Promise<CommandResult<State>> {
  const attempts = deps.attempts ?? 5;
  for (let attempt = 1; ; attempt++) {
    // A stream named by a fresh random id is new: skip reading it (a conflict reads and retries).
    const current = options.newStream && attempt === 1 ? { revision: -1, events: [] } : await deps.eventStore.readStream(stream);
    const state = fold(decider, current.events as unknown as Event[]);
    const decided = decider.decide(command, state);
    if (decided.length === 0) return { state, revision: current.revision, events: [] };
    try {
      const appended = await deps.eventStore.appendToStream(stream, decided, {
        expectedRevision: current.revision === -1 ? 'no_stream' : current.revision,
        metadata,
      });
      const next = appended.events.reduce((acc, event) => decider.evolve(acc, event as unknown as Event), state);
      const result = { state: next, revision: appended.nextRevision, events: appended.events };
      await deps.afterCommit?.(stream, result);
      return result;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      if (attempt >= attempts) throw new DomainError(catalogueError('conflict'));
    }
  }
}
