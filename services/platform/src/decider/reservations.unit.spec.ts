import { MemoryEventStore } from '../event-store/memory.event-store';
import type { EventMetadata } from '../event-store/event-store.port';
import { orphanGracePeriodMs, releaseUnique, reserveUnique } from './reservations';

const at = (ms: number): EventMetadata => ({ correlationId: 'c', occurredAt: new Date(ms).toISOString() });
const reservation = (owner: string) => ({ kind: 'userEmail', value: 'acme:sandbox:ada@acme.com', owner });

describe('reservation streams', () => {
  it('gives a value to one owner, idempotently, and refuses others', async () => {
    const store = new MemoryEventStore();
    expect(await reserveUnique(store, reservation('user-1'), at(0))).toBe('reserved');
    expect(await reserveUnique(store, reservation('user-1'), at(1))).toBe('reserved');
    expect(await reserveUnique(store, reservation('user-2'), at(2))).toBe('taken');
  });

  it('lets exactly one of concurrent reservations win', async () => {
    const store = new MemoryEventStore();
    const outcomes = await Promise.all(
      ['user-1', 'user-2', 'user-3'].map((owner) => reserveUnique(store, reservation(owner), at(0))),
    );
    expect(outcomes.filter((o) => o === 'reserved')).toHaveLength(1);
  });

  it('frees the value on release by its owner only', async () => {
    const store = new MemoryEventStore();
    await reserveUnique(store, reservation('user-1'), at(0));
    await releaseUnique(store, reservation('user-2'), at(1));
    expect(await reserveUnique(store, reservation('user-2'), at(2))).toBe('taken');
    await releaseUnique(store, reservation('user-1'), at(3));
    expect(await reserveUnique(store, reservation('user-2'), at(4))).toBe('reserved');
  });

  it('takes over an orphan reservation (owner never written) only after the grace period', async () => {
    const store = new MemoryEventStore();
    await reserveUnique(store, reservation('user-1'), at(0));
    expect(await reserveUnique(store, reservation('user-2'), at(orphanGracePeriodMs - 1))).toBe('taken');
    expect(await reserveUnique(store, reservation('user-2'), at(orphanGracePeriodMs + 1))).toBe('reserved');
  });

  it('keeps a reservation whose owner exists, however old', async () => {
    const store = new MemoryEventStore();
    await reserveUnique(store, reservation('user-1'), at(0));
    await store.appendToStream('user-1', [{ type: 'UserCreated', data: {} }], { expectedRevision: 'no_stream', metadata: at(1) });
    expect(await reserveUnique(store, reservation('user-2'), at(10 * orphanGracePeriodMs))).toBe('taken');
  });
});
