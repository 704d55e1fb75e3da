import { MemoryEventStore } from '../event-store/memory.event-store';
import type { AppendOptions, AppendResult, NewEvent, ReadStreamResult } from '../event-store/event-store.port';
import { claimRevision, revisionClaimStream } from './revision-claims';

/** An event store that can stop answering, or write an append and then fail to answer it (a fault). */
class FaultyEventStore extends MemoryEventStore {
  down = false;
  writeThenFail = false;
  override async readStream(stream: string): Promise<ReadStreamResult> {
    if (this.down) throw new Error('store unavailable');
    return super.readStream(stream);
  }
  override async appendToStream(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    if (this.down) throw new Error('store unavailable');
    const appended = await super.appendToStream(stream, events, options);
    if (this.writeThenFail) throw new Error('store did not answer');
    return appended;
  }
}

const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const claims = revisionClaimStream('page-1', 1);
const timing = (now = Date.now) => ({ deadline: now() + 100, graceMs: 60_000, now });

async function lastClaimEvent(store: MemoryEventStore, within = 2_000) {
  const until = Date.now() + within;
  for (;;) {
    const last = (await store.readStream(claims)).events.at(-1);
    if (last?.type === 'RevisionClaimReleased' || Date.now() > until) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('revision claims under a store fault', () => {
  it('lets go of a claim whose release the store did not answer once the store answers again', async () => {
    const store = new FaultyEventStore();
    const claim = await claimRevision(store, 'page-1', 1, metadata, timing());
    if (claim.status !== 'claimed') throw new Error('expected the claim');
    store.down = true;
    await expect(claim.release()).resolves.toBeUndefined();
    store.down = false;

    expect((await lastClaimEvent(store))?.type).toBe('RevisionClaimReleased');
    // The next command claims the revision at once, instead of waiting out the grace period.
    expect((await claimRevision(store, 'page-1', 1, metadata, timing())).status).toBe('claimed');
  });

  it('lets go of a claim the store wrote without answering, and answers the fault', async () => {
    const store = new FaultyEventStore();
    store.writeThenFail = true;
    await expect(claimRevision(store, 'page-1', 1, metadata, timing())).rejects.toThrow('store did not answer');
    store.writeThenFail = false;

    expect((await store.readStream(claims)).events.map((event) => event.type)).toEqual(['RevisionClaimed']);
    expect((await lastClaimEvent(store))?.type).toBe('RevisionClaimReleased');
    expect((await claimRevision(store, 'page-1', 1, metadata, timing())).status).toBe('claimed');
  });

  it('never releases a claim another command took over meanwhile', async () => {
    const store = new FaultyEventStore();
    const first = await claimRevision(store, 'page-1', 1, metadata, timing());
    if (first.status !== 'claimed') throw new Error('expected the claim');
    store.down = true;
    await first.release();
    store.down = false;
    // Past the first holder's grace period, another command takes the claim over.
    const later = () => Date.now() + 61_000;
    expect((await claimRevision(store, 'page-1', 1, metadata, timing(later))).status).toBe('claimed');

    await new Promise((resolve) => setTimeout(resolve, 600));
    const events = (await store.readStream(claims)).events;
    expect(events.map((event) => event.type)).toEqual(['RevisionClaimed', 'RevisionClaimed']);
  });
});
