import { MemoryReadModelStore } from '@sesame/platform';
import type { ServiceName } from '@sesame/contracts';
import { feedPage, mergePage } from './events-feed.query';
import type { FeedEntry } from './feed-entry';

const sources: ServiceName[] = ['identity', 'auth-methods', 'directory-sync'];

const entry = (source: ServiceName, seq: number, occurred_at: string, overrides: Partial<FeedEntry> = {}): FeedEntry => ({
  _id: `${source}-${seq}-${overrides.index ?? 0}`,
  source,
  seq,
  index: 0,
  code: 'user.created',
  data: {} as FeedEntry['data'],
  organization_id: 'org-acme',
  organization_domain: 'acme',
  environment: 'sandbox',
  actor: { type: 'api_key', id: 'client-1' },
  occurred_at,
  description: 'A user was created',
  ...overrides,
});
const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
const ids = (entries: FeedEntry[]) => entries.map((one) => one._id);

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

describe('a page of the feed read model', () => {
  const store = new MemoryReadModelStore();
  const entries = store.collection<FeedEntry>('events_feed_v1');
  beforeAll(async () => {
    for (const one of [
      entry('identity', 1, at(1)),
      entry('identity', 1, at(1), {
        _id: 'identity-1-1',
        index: 1,
        code: 'organization.created',
        actor: { type: 'system', id: 'cli' },
      }),
      entry('identity', 2, at(3), { organization_id: 'org-globex', organization_domain: 'globex' }),
      entry('auth-methods', 4, at(2), { code: 'password.created', actor: { type: 'user', id: 'user-1' } }),
      entry('identity', 3, at(4), { environment: 'production' }),
    ])
      await entries.upsert(one);
  });

  const page = (request: Partial<Parameters<typeof feedPage>[2]>) =>
    feedPage(entries, sources, { environment: 'sandbox', positions: {}, limit: 10, ...request });

  it('walks every event of the environment once, page after page, in order', async () => {
    const first = await page({ limit: 2 });
    expect(ids(first.entries)).toEqual(['identity-1-0', 'identity-1-1']);
    expect(first.has_more).toBe(true);
    const second = await page({ limit: 2, positions: first.positions });
    expect(ids(second.entries)).toEqual(['auth-methods-4-0', 'identity-2-0']);
    const third = await page({ limit: 2, positions: second.positions });
    expect(third).toEqual({ entries: [], positions: second.positions, has_more: false });
  });

  it('sees an event written after a page was read, on the next page, once', async () => {
    const first = await page({});
    await entries.upsert(entry('auth-methods', 5, at(0)));
    const next = await page({ positions: first.positions });
    expect(ids(next.entries)).toEqual(['auth-methods-5-0']);
    await entries.delete('auth-methods-5-0');
  });

  it('filters by organization, codes, actor and time range', async () => {
    expect(ids((await page({ organization_id: 'org-globex' })).entries)).toEqual(['identity-2-0']);
    expect(ids((await page({ codes: ['organization.created', 'password.created'] })).entries)).toEqual([
      'identity-1-1',
      'auth-methods-4-0',
    ]);
    expect(ids((await page({ actor_type: 'user', actor_id: 'user-1' })).entries)).toEqual(['auth-methods-4-0']);
    expect(ids((await page({ actor_type: 'system' })).entries)).toEqual(['identity-1-1']);
    expect(ids((await page({ range_start: at(2), range_end: at(3) })).entries)).toEqual(['auth-methods-4-0']);
  });

  it("never answers another environment's events", async () => {
    expect(ids((await page({ environment: 'production' })).entries)).toEqual(['identity-3-0']);
  });
});
