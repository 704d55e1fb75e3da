import type { Commit, DomainEvent, EventStore, RecordedEvent } from '../event-store/event-store.port';
import { parseStreamName } from '../event-store/stream-name';
import type { Decider } from '../decider/decider';
import { fold } from '../decider/decider';
import type { Collection, ReadModelStore } from '../read-model/read-model.port';
import { KeyedMutex } from './keyed-mutex';
import type { Projection } from './projection';

export type ViewDocument<State> = State & { _id: string; _rev: number };

export interface AggregateViewDefinition<State extends object, Event extends DomainEvent> {
  /** Collection base name; stored as `<name>_v<version>`. */
  name: string;
  version: number;
  /** Category of the aggregate's streams (`organization` for `organization-<id>`). */
  category: string;
  decider: Pick<Decider<State, unknown, Event>, 'evolve' | 'initialState'>;
  /** Whether the aggregate appears in the read model (a deleted one does not). */
  isVisible(state: State): boolean;
  /** Fields looked up by equality (`[['domain'], ['email_lower']]`). */
  indexes?: string[][];
}

/**
 * Read model of one aggregate type: a document per aggregate holding its state at a stream
 * revision. Commits that follow the stored revision are folded in; after a gap the stream is
 * reloaded, so the document is always the full state at some revision and never goes back.
 * A removed aggregate leaves a tombstone so that late commits cannot bring it back.
 */
export class AggregateView<State extends object, Event extends DomainEvent> implements Projection {
  readonly name: string;
  readonly version: number;
  readonly categories: string[];
  readonly documents: Collection<ViewDocument<State>>;
  private readonly tombstones: Collection<{ _id: string; _rev: number }>;
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly definition: AggregateViewDefinition<State, Event>,
    store: ReadModelStore,
    private readonly eventStore: EventStore,
  ) {
    this.name = definition.name;
    this.version = definition.version;
    this.categories = [definition.category];
    this.documents = store.collection(`${definition.name}_v${definition.version}`);
    this.tombstones = store.collection(`${definition.name}_v${definition.version}_tombstones`);
  }

  async init(): Promise<void> {
    for (const fields of this.definition.indexes ?? []) await this.documents.ensureIndex(fields);
  }

  async applyState(stream: string, revision: number, state: unknown): Promise<void> {
    const { id } = parseStreamName(stream);
    await this.mutex.run(id, () => this.write(id, revision, state as State));
  }

  async apply(commit: Commit): Promise<void> {
    const first = commit.events[0] as RecordedEvent;
    const last = commit.events.at(-1) as RecordedEvent;
    const { id } = parseStreamName(first.stream);
    await this.mutex.run(id, async () => {
      const document = await this.documents.get(id);
      const tombstone = document ? null : await this.tombstones.get(id);
      const current = document?._rev ?? tombstone?._rev ?? -1;
      if (last.revision <= current) return;
      const events = commit.events as unknown as Event[];
      if (document && first.revision === current + 1)
        return this.write(id, last.revision, events.reduce(this.definition.decider.evolve, stateOf(document)));
      if (!document && !tombstone && first.revision === 0)
        return this.write(id, last.revision, fold(this.definition.decider, events));
      const full = await this.eventStore.readStream(first.stream);
      return this.write(id, full.revision, fold(this.definition.decider, full.events as unknown as Event[]));
    });
  }

  private async write(id: string, revision: number, state: State): Promise<void> {
    if (this.definition.isVisible(state)) {
      await this.documents.upsert({ ...state, _id: id, _rev: revision });
      return;
    }
    await this.tombstones.upsert({ _id: id, _rev: revision });
    const stored = await this.documents.get(id);
    if (stored && stored._rev <= revision) await this.documents.delete(id);
  }
}

function stateOf<State>(document: ViewDocument<State>): State {
  const { _id, _rev, ...state } = document;
  return state as unknown as State;
}
