import { MemoryEventStore } from '../event-store/memory.event-store';
import type { EventMetadata } from '../event-store/event-store.port';
import { orphanGracePeriodMs, releaseUnique, reserveUnique } from './reservations';

const at = (ms = 0): EventMetadata => ({ correlationId: 'c', occurredAt: new Date(Date.UTC(2026, 0, 1) + ms).toISOString() });
const value = (owner: string) => ({ kind: 'userEmail', value: 'org:sandbox:ada@acme.com', owner });

describe('reservations', () => {
  it('reserves a new value, answers reserved again to its owner and taken to anyone else', async () => {
    const store = new MemoryEventStore();
    await store.appendToStream('user-a', [{ type: 'Created', data: {} }], { expectedRevision: 'no_stream', metadata: at() });
    expect(await reserveUnique(store, value('user-a'), at())).toBe('reserved');
    expect(await reserveUnique(store, value('user-a'), at(1))).toBe('reserved');
    expect(await reserveUnique(store, value('user-b'), at(2))).toBe('taken');
    expect(await reserveUnique(store, value('user-b'), at(orphanGracePeriodMs + 10))).toBe('taken');
  });

  it('lets one of concurrent reservations win', async () => {
    const store = new MemoryEventStore();
    const outcomes = await Promise.all(['a', 'b', 'c'].map((owner) => reserveUnique(store, value(`user-${owner}`), at())));
    expect(outcomes.filter((outcome) => outcome === 'reserved')).toHaveLength(1);
  });

  it('frees a value released by its owner only', async () => {
    const store = new MemoryEventStore();
    await reserveUnique(store, value('user-a'), at());
    await releaseUnique(store, value('user-b'), at(1));
    expect(await reserveUnique(store, value('user-b'), at(2))).toBe('taken');
    await releaseUnique(store, value('user-a'), at(3));
    expect(await reserveUnique(store, value('user-b'), at(4))).toBe('reserved');
  });

  it('takes over an orphan (its owner never written) after the grace period only', async () => {
    const store = new MemoryEventStore();
    await reserveUnique(store, value('user-ghost'), at());
    expect(await reserveUnique(store, value('user-b'), at(1_000))).toBe('taken');
    expect(await reserveUnique(store, value('user-b'), at(orphanGracePeriodMs + 1))).toBe('reserved');
  });
});
