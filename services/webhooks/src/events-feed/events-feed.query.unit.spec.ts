import { MemoryReadModelStore } from '@sesame/platform';
import type { ServiceName } from '@sesame/contracts';
import { mergePage } from './events-feed.query';
import { at, eventsFeedStoreSpecification, feedEntry, ids } from './events-feed.store.spec-kit';
import type { FeedEntry } from './feed-entry';

const entry = (source: ServiceName, seq: number, occurred_at: string, overrides: Partial<FeedEntry> = {}) =>
  feedEntry(source, seq, occurred_at, overrides);

describe('merging the streams of a page', () => {
  it('takes the oldest head first and advances each stream only to what it gave', () => {
    const identity = [entry('identity', 1, at(1)), entry('identity', 2, at(4))];
    const authMethods = [entry('auth-methods', 7, at(2)), entry('auth-methods', 9, at(3))];
    const page = mergePage([identity, authMethods, []], { 'directory-sync': [3, 0] }, 3);
    expect(ids(page.entries)).toEqual(['identity-1-0', 'auth-methods-7-0', 'auth-methods-9-0']);
    expect(page.positions).toEqual({ identity: [1, 0], 'auth-methods': [9, 0], 'directory-sync': [3, 0] });
    expect(page.has_more).toBe(true);
  });

  it("keeps a stream's own order when its clock went backwards (never skips its earlier event)", () => {
    const identity = [entry('identity', 1, at(5)), entry('identity', 2, at(1))];
    const authMethods = [entry('auth-methods', 1, at(3))];
    const page = mergePage([identity, authMethods], {}, 1);
    expect(ids(page.entries)).toEqual(['auth-methods-1-0']);
    expect(page.positions).toEqual({ 'auth-methods': [1, 0] });
    const next = mergePage([identity, []], page.positions, 2);
    expect(ids(next.entries)).toEqual(['identity-1-0', 'identity-2-0']);
    expect(next.has_more).toBe(false);
  });

  it('orders events of the same instant by stream name', () => {
    const page = mergePage([[entry('identity', 1, at(1))], [entry('auth-methods', 1, at(1))]], {}, 10);
    expect(ids(page.entries)).toEqual(['auth-methods-1-0', 'identity-1-0']);
    expect(page.has_more).toBe(false);
  });

  it('stops short of the limit when the next event would make the page heavier than a NATS reply may be', () => {
    const heavy = (seq: number) => entry('identity', seq, at(seq), { description: 'x'.repeat(200_000) });
    const identity = [heavy(1), heavy(2), heavy(3), heavy(4)];
    const page = mergePage([identity], {}, 100);
    expect(ids(page.entries)).toEqual(['identity-1-0', 'identity-2-0']);
    expect(page.positions).toEqual({ identity: [2, 0] });
    expect(page.has_more).toBe(true);
    const next = mergePage([identity.slice(2)], page.positions, 100);
    expect(ids(next.entries)).toEqual(['identity-3-0', 'identity-4-0']);
    expect(next.has_more).toBe(false);
  });

  it('gives an event heavier than the budget a page of its own rather than none', () => {
    const page = mergePage([[entry('identity', 1, at(1)), entry('identity', 2, at(2))]], {}, 10, 10);
    expect(ids(page.entries)).toEqual(['identity-1-0']);
    expect(page.has_more).toBe(true);
  });
});

describe('the feed on the in-memory read model', () => {
  eventsFeedStoreSpecification(
    async () => new MemoryReadModelStore(),
    async (store) => store.close(),
  );
});
