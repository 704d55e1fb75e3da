import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { openKvBucket } from './kv-buckets';

describe('openKvBucket (real NATS key-value)', () => {
  let nc: NatsConnection;
  let name: string;

  beforeEach(async () => {
    nc = await connect({ servers: testNatsUrl() });
    name = `${testPrefix()}_buckets`;
  });
  afterEach(async () => {
    await (await nc.jetstreamManager()).streams.delete(`KV_${name}`).catch(() => undefined);
    await nc.close();
  });

  it('creates the bucket under its own timeout, not the per-request one no creation fits in (1 ms; a 3-replica creation on a cluster outlasts the gateway’s 500 ms)', async () => {
    await openKvBucket(nc, name, { history: 1, ttl: 60_000 }, 1);

    const status = await (await nc.jetstreamManager()).streams.info(`KV_${name}`);
    expect(status.config).toMatchObject({ max_msgs_per_subject: 1, max_age: 60_000 * 1_000_000, num_replicas: 1 });
  });

  it('answers a bucket that reads and writes, found again by a second process (another gateway replica)', async () => {
    const first = await openKvBucket(nc, name, { history: 1 }, 2_000);
    await first.put('counter', '1');

    const second = await openKvBucket(nc, name, { history: 1 }, 2_000);

    expect((await second.get('counter'))?.string()).toBe('1');
  });
});
