import { catalogueError } from '@sesame/contracts';
import { MemoryEventStore } from '../event-store/memory.event-store';
import { handleCommand } from './command-handler';
import { fail } from './decider';
import type { Decider } from './decider';

type Event = { type: 'Created'; data: { name: string } };
const decider: Decider<{ exists: boolean }, { type: 'Create'; name: string }, Event> = {
  initialState: () => ({ exists: false }),
  decide: (command, state) => {
    if (state.exists) fail(catalogueError('conflict', 'exists'));
    return [{ type: 'Created', data: { name: command.name } }];
  },
  evolve: () => ({ exists: true }),
};
const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };

describe('handleCommand with newStream', () => {
  it('appends to a new stream without reading it first', async () => {
    const store = new MemoryEventStore();
    const read = jest.spyOn(store, 'readStream');
    const result = await handleCommand({ eventStore: store }, decider, 'thing-1', { type: 'Create', name: 'a' }, metadata, {
      newStream: true,
    });
    expect(result.revision).toBe(0);
    expect(read).not.toHaveBeenCalled();
  });

  it('reads and decides on the real state when the stream exists after all', async () => {
    const store = new MemoryEventStore();
    await handleCommand({ eventStore: store }, decider, 'thing-1', { type: 'Create', name: 'a' }, metadata);
    await expect(
      handleCommand({ eventStore: store }, decider, 'thing-1', { type: 'Create', name: 'b' }, metadata, { newStream: true }),
    ).rejects.toMatchObject({ error: { kind: 'error', code: 'conflict', message: 'exists' } });
    expect((await store.readStream('thing-1')).events).toHaveLength(1);
  });
});
