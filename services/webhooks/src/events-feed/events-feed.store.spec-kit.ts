import { createLogger } from '@sesame/platform';
import type { Collection, ReadModelStore } from '@sesame/platform';
import type { ServiceName } from '@sesame/contracts';
import { openEventsFeed } from './events-feed.projection';
import { feedPage } from './events-feed.query';
import { startEventsFeedRetention } from './events-feed.retention';
import type { FeedEntry } from './feed-entry';

const sources: ServiceName[] = ['identity', 'auth-methods', 'directory-sync'];
const day = 86_400_000;

export const feedEntry = (
  source: ServiceName,
  seq: number,
  occurred_at: string,
  overrides: Partial<FeedEntry> = {},
): FeedEntry => ({
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
export const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`;
export const ids = (entries: FeedEntry[]) => entries.map((one) => one._id);

/**
 * The feed's own queries (a page after positions with `$or`, `$in` on codes, dotted actor fields,
 * a time range; retention's `deleteMany` on `occurred_at`) against a read-model store: the
 * in-memory one in the unit tier, MongoDB in the testcontainers suite, with the indexes the
 * projection creates (`openEventsFeed`).
 */
export function eventsFeedStoreSpecification(
  open: () => Promise<ReadModelStore>,
  close: (store: ReadModelStore) => Promise<void>,
) {
  let store: ReadModelStore;
  let entries: Collection<FeedEntry>;
  beforeAll(async () => {
    store = await open();
    entries = await openEventsFeed(store);
    for (const one of [
      feedEntry('identity', 1, at(1)),
      feedEntry('identity', 1, at(1), {
        _id: 'identity-1-1',
        index: 1,
        code: 'organization.created',
        actor: { type: 'system', id: 'cli' },
      }),
      feedEntry('identity', 2, at(3), { organization_id: 'org-globex', organization_domain: 'globex' }),
      feedEntry('auth-methods', 4, at(2), { code: 'password.created', actor: { type: 'user', id: 'user-1' } }),
      feedEntry('identity', 3, at(4), { environment: 'production' }),
    ])
      await entries.upsert(one);
  });
  afterAll(async () => {
    if (store) await close(store);
  });

  const page = (request: Partial<Parameters<typeof feedPage>[2]>) =>
    feedPage(entries, sources, { environment: 'sandbox', positions: {}, limit: 10, ...request });

  describe('a page of the feed read model', () => {
    it('walks every event of the environment once, page after page, in order', async () => {
      const first = await page({ limit: 2 });
      expect(ids(first.entries)).toEqual(['identity-1-0', 'identity-1-1']);
      expect(first.has_more).toBe(true);
      const second = await page({ limit: 2, positions: first.positions });
      expect(ids(second.entries)).toEqual(['auth-methods-4-0', 'identity-2-0']);
      const third = await page({ limit: 2, positions: second.positions });
      expect(third).toEqual({ entries: [], positions: second.positions, has_more: false });
    });

    it('goes on within a commit: the next page starts after the index reached', async () => {
      const first = await page({ limit: 1 });
      expect(ids(first.entries)).toEqual(['identity-1-0']);
      expect(ids((await page({ limit: 1, positions: first.positions })).entries)).toEqual(['identity-1-1']);
    });

    it('sees an event written after a page was read, on the next page, once', async () => {
      const first = await page({});
      await entries.upsert(feedEntry('auth-methods', 5, at(0)));
      const next = await page({ positions: first.positions });
      expect(ids(next.entries)).toEqual(['auth-methods-5-0']);
      await entries.delete('auth-methods-5-0');
    });

    it('filters by organization, codes, actor and time range', async () => {
      expect(ids((await page({ organization_id: 'org-globex' })).entries)).toEqual(['identity-2-0']);
      expect(ids((await page({ organization_domain: 'globex' })).entries)).toEqual(['identity-2-0']);
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

  describe('retention of the events feed', () => {
    it('deletes the events older than the retention period, keeps the others', async () => {
      const kept = store.collection<FeedEntry>('events_feed_retention');
      await kept.upsert(feedEntry('identity', 1, '2026-01-01T00:00:00.000Z', { _id: 'old' }));
      await kept.upsert(feedEntry('identity', 2, '2026-03-31T23:59:59.999Z', { _id: 'edge' }));
      await kept.upsert(feedEntry('identity', 3, '2026-04-01T00:00:00.000Z', { _id: 'recent' }));
      const retention = startEventsFeedRetention({
        entries: kept,
        retentionMs: 90 * day,
        logger: createLogger('webhooks', 'silent'),
        now: () => new Date(Date.parse('2026-04-01T00:00:00.000Z') + 90 * day),
      });
      try {
        expect(await retention.sweep()).toBe(2);
        expect((await kept.find({})).map((one) => one._id)).toEqual(['recent']);
      } finally {
        retention.stop();
      }
    });
  });
}
