import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import type { Job } from './domain/job.decider';
import { JobIndex } from './job-index';
import { JobStore } from './job-store';
import { aNewJob } from './job.spec-kit';

const at = '2026-01-01T00:00:00.000Z';
const newJob = (eventId: string, webhookId = 'webhook_a') => aNewJob(eventId, webhookId, at);
const claim = (owner: string) => ({
  type: 'ClaimJob' as const,
  data: { owner, lease_ms: 60_000, now: new Date().toISOString() },
});

describe('delivery jobs in a JetStream key-value bucket (real NATS)', () => {
  let nc: NatsConnection;
  let prefix: string;
  let store: JobStore;
  beforeAll(async () => {
    nc = await connect({ servers: testNatsUrl() });
    prefix = testPrefix('wj');
    store = await JobStore.open(nc, prefix, 1);
  });
  afterAll(async () => {
    await (await nc.jetstreamManager()).streams.delete(`KV_${prefix}_webhook_jobs`);
    await nc.close();
  });

  it('gives increasing integer ids, and the same job for the same event and webhook', async () => {
    const first = await store.enqueue(newJob('e1'));
    const second = await store.enqueue(newJob('e2'));
    const again = await store.enqueue(newJob('e1'));
    const otherWebhook = await store.enqueue(newJob('e1', 'webhook_b'));
    expect(Number.isInteger(first.job.id)).toBe(true);
    expect(second.job.id).toBeGreaterThan(first.job.id);
    expect(again.job).toEqual(first.job);
    expect(otherWebhook.job.id).toBeGreaterThan(second.job.id);
  });

  it('lets exactly one of many concurrent claims win (compare-and-set lease)', async () => {
    const { job } = await store.enqueue(newJob('race'));
    const owners = Array.from({ length: 8 }, (_, i) => `replica-${i}`);
    const results = await Promise.all(owners.map((owner) => store.transition(job.id, claim(owner))));
    const winners = results.filter((result) => result?.changed);
    expect(winners).toHaveLength(1);
    const stored = (await store.get(job.id))?.job as Job;
    expect(stored).toMatchObject({ state: 'executing', attempt: 1, lease: { owner: winners[0]?.job.lease?.owner } });
  });

  it('answers null for an unknown job', async () => {
    expect(await store.transition(987_654_321, claim('x'))).toBeNull();
  });

  it('feeds an index through the watch, deletions included', async () => {
    const index = new JobIndex();
    let ready = false;
    const watch = await store.watch(index.observe, () => (ready = true));
    const { job } = await store.enqueue(newJob('watched'));
    const waitFor = async (predicate: () => boolean) => {
      const started = Date.now();
      while (!predicate()) {
        if (Date.now() - started > 10_000) throw new Error('condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await waitFor(() => ready && index.get(job.id) !== null);
    const cancelled = await store.transition(job.id, { type: 'CancelJob', data: { now: at } });
    await waitFor(() => index.get(job.id)?.state === 'cancelled');
    expect(index.expired('2026-01-02T00:00:00.000Z').map((stored) => stored.job.id)).toContain(job.id);
    await store.remove(cancelled?.job as Job, cancelled?.revision as number);
    await waitFor(() => index.get(job.id) === null);
    expect(await store.get(job.id)).toBeNull();
    watch.stop();
  });
});
