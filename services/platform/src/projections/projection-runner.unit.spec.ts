import { MemoryEventStore } from '../event-store/memory.event-store';
import type { Commit } from '../event-store/event-store.port';
import { createLogger } from '../logging/logger';
import { MemoryReadModelStore } from '../read-model/memory.read-model';
import { ProjectionRunner } from './projection-runner';

const metadata = () => ({ correlationId: 'c', occurredAt: new Date().toISOString() });

describe('ProjectionRunner.caughtUp', () => {
  it('resolves once every commit stored before the call is applied, and at once when none is pending', async () => {
    const store = new MemoryEventStore();
    const runner = new ProjectionRunner(store, new MemoryReadModelStore(), createLogger('test', 'silent'));
    const applied: bigint[] = [];
    runner.register({
      name: 'slow',
      version: 1,
      categories: ['thing'],
      init: async () => undefined,
      apply: async (commit: Commit) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        applied.push(commit.position);
      },
    });
    await runner.start();
    await runner.whenReady();
    await runner.caughtUp();
    await store.appendToStream('thing-1', [{ type: 'A', data: {} }], { expectedRevision: 'no_stream', metadata: metadata() });
    await store.appendToStream('other-1', [{ type: 'B', data: {} }], { expectedRevision: 'no_stream', metadata: metadata() });
    await store.appendToStream('thing-1', [{ type: 'C', data: {} }], { expectedRevision: 0, metadata: metadata() });
    expect(applied).toEqual([]);
    await runner.caughtUp();
    expect(applied).toEqual([1n, 3n]);
    await runner.stop();
  });
});
