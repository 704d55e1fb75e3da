import { MemoryReadModelStore, createLogger } from '@sesame/platform';
import { startEventsFeedRetention } from './events-feed.retention';
import type { FeedEntry } from './feed-entry';

const day = 86_400_000;
const entry = (id: string, occurred_at: string): FeedEntry => ({
  _id: id,
  source: 'identity',
  seq: 1,
  index: 0,
  code: 'user.created',
  data: {} as FeedEntry['data'],
  organization_id: null,
  organization_domain: null,
  environment: 'sandbox',
  actor: null,
  occurred_at,
  description: 'A user was created',
});

describe('retention of the events feed', () => {
  it('deletes the events older than the retention period, keeps the others', async () => {
    const entries = new MemoryReadModelStore().collection<FeedEntry>('events_feed_v1');
    await entries.upsert(entry('old', '2026-01-01T00:00:00.000Z'));
    await entries.upsert(entry('edge', '2026-03-31T23:59:59.999Z'));
    await entries.upsert(entry('recent', '2026-04-01T00:00:00.000Z'));
    const retention = startEventsFeedRetention({
      entries,
      retentionMs: 90 * day,
      logger: createLogger('webhooks', 'silent'),
      now: () => new Date(Date.parse('2026-04-01T00:00:00.000Z') + 90 * day),
    });
    try {
      expect(await retention.sweep()).toBe(2);
      expect((await entries.find({})).map((kept) => kept._id)).toEqual(['recent']);
    } finally {
      retention.stop();
    }
  });
});
