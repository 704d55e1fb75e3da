import { MemoryEventStore } from '../event-store/memory.event-store';
import { createLogger } from '../logging/logger';
import { MemoryReadModelStore } from '../read-model/memory.read-model';
import { AggregateView } from './aggregate-view';
import { ProjectionRunner } from './projection-runner';

type Event = { type: 'Named'; data: { name: string } };
const view = (version: number) => ({
  name: 'things',
  version,
  category: 'thing',
  decider: { initialState: () => ({ name: '' }), evolve: (_s: { name: string }, e: Event) => ({ name: e.data.name }) },
  isVisible: () => true,
});
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const logger = createLogger('test', 'silent');

async function waitFor(predicate: () => Promise<boolean>) {
  for (let i = 0; i < 200 && !(await predicate()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('ProjectionRunner', () => {
  it('catches up with existing events before saying it is ready, then follows new ones', async () => {
    const store = new MemoryEventStore();
    await store.appendToStream('thing-1', [{ type: 'Named', data: { name: 'a' } }], { expectedRevision: 'no_stream', metadata });
    await store.appendToStream('other-1', [{ type: 'Ignored', data: {} }], { expectedRevision: 'no_stream', metadata });
    const readModels = new MemoryReadModelStore();
    const runner = new ProjectionRunner(store, readModels, logger);
    const things = runner.register(new AggregateView(view(1), readModels, store));
    await runner.start();
    await runner.whenReady();
    expect(await things.documents.get('1')).toMatchObject({ name: 'a' });
    await store.appendToStream('thing-2', [{ type: 'Named', data: { name: 'b' } }], { expectedRevision: 'no_stream', metadata });
    await waitFor(async () => (await things.documents.get('2')) !== null);
    expect(await things.documents.get('2')).toMatchObject({ name: 'b' });
    expect(await runner.lag()).toBe(0n);
    await runner.stop();
  });

  it('resumes from its checkpoint, and rebuilds from zero into a new collection when the version changes', async () => {
    const store = new MemoryEventStore();
    const readModels = new MemoryReadModelStore();
    await store.appendToStream('thing-1', [{ type: 'Named', data: { name: 'a' } }], { expectedRevision: 'no_stream', metadata });
    const first = new ProjectionRunner(store, readModels, logger);
    const v1 = first.register(new AggregateView(view(1), readModels, store));
    await first.start();
    await first.whenReady();
    await first.stop();
    expect(await readModels.collection('_checkpoints').get('things_v1')).toEqual({ _id: 'things_v1', position: '1' });

    await v1.documents.delete('1');
    const resumed = new ProjectionRunner(store, readModels, logger);
    resumed.register(new AggregateView(view(1), readModels, store));
    await resumed.start();
    await resumed.whenReady();
    expect(await v1.documents.get('1')).toBeNull();
    await resumed.stop();

    const upgraded = new ProjectionRunner(store, readModels, logger);
    const v2 = upgraded.register(new AggregateView(view(2), readModels, store));
    await upgraded.start();
    await upgraded.whenReady();
    expect(await v2.documents.get('1')).toMatchObject({ name: 'a' });
    await upgraded.stop();
  });

  it('is ready at once on an empty store', async () => {
    const store = new MemoryEventStore();
    const readModels = new MemoryReadModelStore();
    const runner = new ProjectionRunner(store, readModels, logger);
    runner.register(new AggregateView(view(1), readModels, store));
    await runner.start();
    expect(runner.isReady()).toBe(true);
    await runner.stop();
  });
});
