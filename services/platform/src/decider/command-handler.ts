import type { DomainEvent, EventMetadata, EventStore, RecordedEvent } from '../event-store/event-store.port';
import { Aggregate } from './aggregate';
import type { Loaded } from './aggregate';
import type { Decider } from './decider';

export interface CommandResult<State, Event extends DomainEvent = DomainEvent> {
  state: State;
  /** Revision of the stream after the command (-1: the stream still does not exist). */
  revision: number;
  events: RecordedEvent<Event>[];
}

/** Called after a successful append with the new state, e.g. to apply projections inline. */
export type AfterCommit<State> = (stream: string, result: CommandResult<State>) => Promise<void>;

export interface CommandHandlerDeps<State> {
  eventStore: EventStore;
  afterCommit?: AfterCommit<State>;
  /** Attempts on a concurrency conflict before answering 409 conflict (8 by default, with a growing random pause between them). */
  attempts?: number;
}

export interface HandleCommandOptions<State = unknown> {
  /** The stream is expected not to exist yet (a fresh uuid): the first attempt does not read it. */
  newStream?: boolean;
  /** The stream as the caller has just read it: the first attempt decides on it (see `HandleOptions.loaded`). */
  loaded?: Loaded<State>;
}

/**
 * Load, decide, append with the expected revision, retry on conflict (DESIGN.md section 3).
 * A command that decides no events appends nothing and answers the current state. The same as
 * `Aggregate.handle` on a stream named directly (see aggregate.ts).
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  deps: CommandHandlerDeps<State>,
  decider: Decider<State, Command, Event>,
  stream: string,
  command: Command,
  metadata: EventMetadata,
  options: HandleCommandOptions<State> = {},
): Promise<CommandResult<State, Event>> {
  return new Aggregate(deps, { decider, stream: () => stream }).handle(stream, command, metadata, options);
}
