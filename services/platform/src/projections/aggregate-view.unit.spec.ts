import { MemoryEventStore } from '../event-store/memory.event-store';
import type { Commit, RecordedEvent } from '../event-store/event-store.port';
import { MemoryReadModelStore } from '../read-model/memory.read-model';
import { AggregateView } from './aggregate-view';

type Event = { type: 'Named'; data: { name: string } } | { type: 'Removed'; data: Record<string, never> };
type State = { status: 'empty' | 'live' | 'removed'; name: string };
const definition = {
  name: 'things',
  version: 1,
  category: 'thing',
  decider: {
    initialState: (): State => ({ status: 'empty', name: '' }),
    evolve: (state: State, event: Event): State =>
      event.type === 'Named' ? { status: 'live', name: event.data.name } : { ...state, status: 'removed' },
  },
  isVisible: (state: State) => state.status === 'live',
};
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };

async function setup() {
  const store = new MemoryEventStore();
  const view = new AggregateView(definition, new MemoryReadModelStore(), store);
  await view.init();
  const commits: Commit[] = [];
  const append = async (events: Event[]) => {
    const { revision } = await store.readStream('thing-1');
    const result = await store.appendToStream('thing-1', events, {
      expectedRevision: revision === -1 ? 'no_stream' : revision,
      metadata,
    });
    const commit = { position: result.position, events: result.events as RecordedEvent[] };
    commits.push(commit);
    return commit;
  };
  return { store, view, commits, append };
}

describe('AggregateView', () => {
  it('folds commits in order into the document', async () => {
    const { view, append } = await setup();
    await view.apply(await append([{ type: 'Named', data: { name: 'a' } }]));
    await view.apply(await append([{ type: 'Named', data: { name: 'b' } }]));
    expect(await view.documents.get('1')).toEqual({ _id: '1', _rev: 1, status: 'live', name: 'b' });
  });

  it('ignores a commit it has already applied, and an older one', async () => {
    const { view, append, commits } = await setup();
    await append([{ type: 'Named', data: { name: 'a' } }]);
    await view.apply(await append([{ type: 'Named', data: { name: 'b' } }]));
    await view.apply(commits[0] as Commit);
    await view.apply(commits[1] as Commit);
    expect(await view.documents.get('1')).toMatchObject({ _rev: 1, name: 'b' });
  });

  it('reloads the stream after a gap instead of folding onto a stale state', async () => {
    const { view, append } = await setup();
    await view.apply(await append([{ type: 'Named', data: { name: 'a' } }]));
    await append([{ type: 'Named', data: { name: 'b' } }]);
    await view.apply(await append([{ type: 'Named', data: { name: 'c' } }]));
    expect(await view.documents.get('1')).toMatchObject({ _rev: 2, name: 'c' });
  });

  it('removes a deleted aggregate and keeps it removed when an old commit arrives late', async () => {
    const { view, append, commits } = await setup();
    await append([{ type: 'Named', data: { name: 'a' } }]);
    await view.apply(await append([{ type: 'Removed', data: {} }]));
    expect(await view.documents.get('1')).toBeNull();
    await view.apply(commits[0] as Commit);
    expect(await view.documents.get('1')).toBeNull();
  });

  it('brings back an aggregate created again after its deletion', async () => {
    const { view, append } = await setup();
    await view.apply(await append([{ type: 'Named', data: { name: 'a' } }]));
    await view.apply(await append([{ type: 'Removed', data: {} }]));
    await view.apply(await append([{ type: 'Named', data: { name: 'again' } }]));
    expect(await view.documents.get('1')).toMatchObject({ _rev: 2, name: 'again' });
  });

  it('takes the inline state of a command, and a later subscription copy changes nothing', async () => {
    const { view, append } = await setup();
    const commit = await append([{ type: 'Named', data: { name: 'a' } }]);
    await view.applyState('thing-1', 0, { status: 'live', name: 'a' });
    await view.apply(commit);
    expect(await view.documents.get('1')).toEqual({ _id: '1', _rev: 0, status: 'live', name: 'a' });
  });
});
