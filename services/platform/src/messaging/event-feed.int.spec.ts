import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import type { Commit, Subscription } from '../event-store/event-store.port';
import { JetStreamEventStore } from '../event-store/jetstream.event-store';
import { createLogger } from '../logging/logger';
import { jetStreamName } from '../runtime/stores';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { defaultAckWaitMs, subscribeToServiceEvents } from './event-feed';

const metadata = { correlationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z' };
const logger = createLogger('test', 'silent');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(predicate: () => boolean, timeoutMs = 10_000) {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('subscribeToServiceEvents (real NATS)', () => {
  let nc: NatsConnection;
  let prefix: string;
  let store: JetStreamEventStore;
  const subscriptions: Subscription[] = [];

  beforeEach(async () => {
    nc = await connect({ servers: testNatsUrl() });
    prefix = testPrefix();
    store = await JetStreamEventStore.open(nc, {
      streamName: jetStreamName(prefix, 'identity'),
      subjectPrefix: eventSubjectPrefix(prefix, 'identity'),
    });
  });
  afterEach(async () => {
    for (const subscription of subscriptions.splice(0)) await subscription.stop();
    await store.destroy();
    await nc.close();
  });

  const feed = (consumer: string, onCommit: (commit: Commit) => Promise<void>) => {
    const subscription = subscribeToServiceEvents({ nc, prefix, source: 'identity', consumer, onCommit, logger });
    subscriptions.push(subscription);
    return subscription;
  };

  it('delivers another service’s commits in order, past ones first', async () => {
    await store.appendToStream('organization-a', [{ type: 'OrganizationCreated', data: { n: 1 } }], {
      expectedRevision: 'no_stream',
      metadata,
    });
    const seen: number[] = [];
    feed('webhooks', async (commit) => void seen.push(...commit.events.map((e) => (e.data as { n: number }).n)));
    await store.appendToStream('organization-a', [{ type: 'OrganizationUpdated', data: { n: 2 } }], {
      expectedRevision: 0,
      metadata,
    });
    await store.appendToStream('organization-b', [{ type: 'OrganizationCreated', data: { n: 3 } }], {
      expectedRevision: 'no_stream',
      metadata,
    });
    await waitFor(() => seen.length === 3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('handles the commits of different streams at once with parallelCommits, each stream in order', async () => {
    const append = (stream: string, n: number, revision: number | 'no_stream') =>
      store.appendToStream(stream, [{ type: 'T', data: { n } }], { expectedRevision: revision, metadata });
    await append('slow-a', 1, 'no_stream');
    await append('slow-a', 2, 0);
    await append('fast-b', 3, 'no_stream');
    await append('fast-b', 4, 0);
    let release!: () => void;
    const slowGate = new Promise<void>((resolve) => (release = resolve));
    const seen: number[] = [];
    const subscription = subscribeToServiceEvents({
      nc,
      prefix,
      source: 'identity',
      consumer: 'parallel',
      logger,
      parallelCommits: 4,
      onCommit: async (commit) => {
        const n = (commit.events[0]?.data as { n: number }).n;
        if (n === 1) await slowGate;
        seen.push(n);
      },
    });
    subscriptions.push(subscription);
    // The other stream's commits pass the held one; the held stream's next commit waits for it.
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([3, 4]);
    release();
    await waitFor(() => seen.length === 4);
    expect(seen).toEqual([3, 4, 1, 2]);
  });

  it('raises the commits in flight of a consumer an older version made one at a time', async () => {
    await store.appendToStream('organization-older', [{ type: 'T', data: {} }], { expectedRevision: 'no_stream', metadata });
    const seen: string[] = [];
    const first = feed('upgraded', async (commit) => void seen.push(commit.events[0]?.stream as string));
    await waitFor(() => seen.length === 1);
    await first.stop();
    subscriptions.push(
      subscribeToServiceEvents({
        nc,
        prefix,
        source: 'identity',
        consumer: 'upgraded',
        logger,
        parallelCommits: 8,
        onCommit: async (commit) => void seen.push(commit.events[0]?.stream as string),
      }),
    );
    await store.appendToStream('organization-newer', [{ type: 'T', data: {} }], { expectedRevision: 'no_stream', metadata });
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual(['organization-older', 'organization-newer']);
    const jsm = await nc.jetstreamManager();
    expect((await jsm.consumers.info(jetStreamName(prefix, 'identity'), 'upgraded')).config.max_ack_pending).toBe(8);
  });

  it('tries a commit whose handler failed again in place, without skipping to the next nor asking the server to redeliver it', async () => {
    await store.appendToStream('organization-a', [{ type: 'A', data: { n: 1 } }], { expectedRevision: 'no_stream', metadata });
    await store.appendToStream('organization-a', [{ type: 'B', data: { n: 2 } }], { expectedRevision: 0, metadata });
    let failures = 0;
    const seen: number[] = [];
    feed('flaky', async (commit) => {
      const n = (commit.events[0]?.data as { n: number }).n;
      if (n === 1 && failures++ < 2) throw new Error('temporarily down');
      seen.push(n);
    });
    await waitFor(() => seen.length === 2, 20_000);
    expect(seen).toEqual([1, 2]);
    expect(failures).toBe(3);
    const info = await (await nc.jetstreamManager()).consumers.info(jetStreamName(prefix, 'identity'), 'flaky');
    expect(info.num_redelivered).toBe(0);
  });

  it('stops at once while trying a commit again, which another replica then gets within its ack wait', async () => {
    await store.appendToStream('organization-a', [{ type: 'A', data: { n: 1 } }], { expectedRevision: 'no_stream', metadata });
    let tries = 0;
    const failing = feed('handover', async () => {
      tries++;
      throw new Error('down on this replica');
    });
    await waitFor(() => tries >= 2, 10_000);
    const stopping = Date.now();
    await failing.stop();
    expect(Date.now() - stopping).toBeLessThan(1_500);
    const seen: number[] = [];
    const taken = Date.now();
    feed('handover', async (commit) => void seen.push((commit.events[0]?.data as { n: number }).n));
    await waitFor(() => seen.length === 1, 20_000);
    expect(seen).toEqual([1]);
    expect(Date.now() - taken).toBeLessThan(defaultAckWaitMs + 3_000);
  });

  it('stops within 2 s while a handler hangs (a service that does not answer), and another replica then gets its commit', async () => {
    await store.appendToStream('organization-a', [{ type: 'A', data: { n: 1 } }], { expectedRevision: 'no_stream', metadata });
    let hanging = false;
    const stuck = feed('hung', async () => {
      hanging = true;
      await new Promise(() => undefined);
    });
    await waitFor(() => hanging, 10_000);
    const stopping = Date.now();
    await stuck.stop();
    expect(Date.now() - stopping).toBeLessThan(3_000);
    // The stopped feed no longer keeps the commit in progress, though its handler still hangs.
    const seen: number[] = [];
    const taken = Date.now();
    feed('hung', async (commit) => void seen.push((commit.events[0]?.data as { n: number }).n));
    await waitFor(() => seen.length === 1, 20_000);
    expect(seen).toEqual([1]);
    expect(Date.now() - taken).toBeLessThan(defaultAckWaitMs + 3_000);
  });

  it('resumes after a stop where it left off (durable), and consumers do not share progress', async () => {
    const seen: string[] = [];
    const first = feed('durable', async (commit) => void seen.push(commit.events[0]?.type as string));
    await store.appendToStream('organization-a', [{ type: 'One', data: {} }], { expectedRevision: 'no_stream', metadata });
    await waitFor(() => seen.length === 1);
    await first.stop();
    await store.appendToStream('organization-a', [{ type: 'Two', data: {} }], { expectedRevision: 0, metadata });
    feed('durable', async (commit) => void seen.push(commit.events[0]?.type as string));
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual(['One', 'Two']);

    const other: string[] = [];
    feed('another', async (commit) => void other.push(commit.events[0]?.type as string));
    await waitFor(() => other.length === 2);
    expect(other).toEqual(['One', 'Two']);
  });

  it('stops while a commit is being handled: lets that handler finish, acknowledges it, and returns', async () => {
    await store.appendToStream('organization-a', [{ type: 'One', data: {} }], { expectedRevision: 'no_stream', metadata });
    await store.appendToStream('organization-a', [{ type: 'Two', data: {} }], { expectedRevision: 0, metadata });
    let release!: () => void;
    const handling = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const started: string[] = [];
    const subscription = feed('stopping', async (commit) => {
      started.push(commit.events[0]?.type as string);
      await handling;
      seen.push(commit.events[0]?.type as string);
    });
    await waitFor(() => started.length === 1);
    const stopped = subscription.stop();
    release();
    // Hung until the process's shutdown deadline before (nats.js's close() never resolves here).
    await expect(Promise.race([stopped.then(() => 'stopped'), sleep(5_000).then(() => 'still stopping')])).resolves.toBe(
      'stopped',
    );
    expect(seen).toEqual(['One']);
    // The handled commit was acknowledged: the next consumer of the same name starts at `Two`.
    const after: string[] = [];
    feed('stopping', async (commit) => void after.push(commit.events[0]?.type as string));
    await waitFor(() => after.length === 1);
    expect(after).toEqual(['Two']);
  });

  it('redelivers, within its ack wait, a commit taken by a replica that died before acknowledging it', async () => {
    await store.appendToStream('organization-a', [{ type: 'One', data: {} }], { expectedRevision: 'no_stream', metadata });
    const doomed = await connect({ servers: testNatsUrl() });
    let taken = false;
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const crashed = subscribeToServiceEvents({
      nc: doomed,
      prefix,
      source: 'identity',
      consumer: 'crashing',
      logger,
      onCommit: async () => {
        taken = true;
        await released;
      },
    });
    await waitFor(() => taken);
    await doomed.close(); // as a kill -9 would: no acknowledgement, no more heartbeats
    const seen: string[] = [];
    feed('crashing', async (commit) => void seen.push(commit.events[0]?.type as string));
    // Seconds, not the minute it once took: the feed holds one commit in flight, so a crash stalled it that long.
    await waitFor(() => seen.length === 1, 20_000);
    expect(seen).toEqual(['One']);
    release();
    await crashed.stop();
  });

  it('keeps a commit whose handler outlasts the ack wait to that handler (progress heartbeats)', async () => {
    await store.appendToStream('organization-a', [{ type: 'Slow', data: {} }], { expectedRevision: 'no_stream', metadata });
    let deliveries = 0;
    let done = false;
    subscriptions.push(
      subscribeToServiceEvents({
        nc,
        prefix,
        source: 'identity',
        consumer: 'slow',
        logger,
        ackWaitMs: 1_000,
        onCommit: async () => {
          deliveries++;
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          done = true;
        },
      }),
    );
    await waitFor(() => done);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(deliveries).toBe(1);
  });

  it('waits for a source stream that does not exist yet', async () => {
    const lateSource = testPrefix();
    const seen: string[] = [];
    const subscription = subscribeToServiceEvents({
      nc,
      prefix: lateSource,
      source: 'identity',
      consumer: 'early',
      onCommit: async (c) => void seen.push(c.events[0]?.type as string),
      logger,
    });
    subscriptions.push(subscription);
    await new Promise((r) => setTimeout(r, 300));
    const late = await JetStreamEventStore.open(nc, {
      streamName: jetStreamName(lateSource, 'identity'),
      subjectPrefix: eventSubjectPrefix(lateSource, 'identity'),
    });
    try {
      await late.appendToStream('organization-z', [{ type: 'Late', data: {} }], { expectedRevision: 'no_stream', metadata });
      await waitFor(() => seen.length === 1, 15_000);
      expect(seen).toEqual(['Late']);
    } finally {
      await subscription.stop();
      await late.destroy();
    }
  });

  it('sends a consumer of one category only the commits of that category', async () => {
    const seen: string[] = [];
    subscriptions.push(
      subscribeToServiceEvents({
        nc,
        prefix,
        source: 'identity',
        consumer: 'metakeys-only',
        category: 'userMetakey',
        onCommit: async (commit) => void seen.push(...commit.events.map((e) => e.stream)),
        logger,
      }),
    );
    await store.appendToStream('user-1', [{ type: 'UserCreated', data: {} }], { expectedRevision: 'no_stream', metadata });
    await store.appendToStream('userMetakey-sandbox:seats', [{ type: 'UserMetakeyCreated', data: {} }], {
      expectedRevision: 'no_stream',
      metadata,
    });
    await store.appendToStream('organization-x', [{ type: 'OrganizationCreated', data: {} }], {
      expectedRevision: 'no_stream',
      metadata,
    });
    await store.appendToStream('userMetakey-production:seats', [{ type: 'UserMetakeyCreated', data: {} }], {
      expectedRevision: 'no_stream',
      metadata,
    });
    await waitFor(() => seen.length === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual(['userMetakey-sandbox:seats', 'userMetakey-production:seats']);
  });
});
