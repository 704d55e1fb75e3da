import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { KeyRing, createLogger } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { JobIndex } from '../jobs/job-index';
import { JobStore } from '../jobs/job-store';
import { aNewJob } from '../jobs/job.spec-kit';
import { startRetention } from '../jobs/retention';
import type { WebhookState } from '../webhooks/domain/webhook.decider';
import { Dispatcher } from './dispatcher';
import { Sender } from './sender';
import { generateSignatureKey } from './signing';

const logger = createLogger('test', 'silent');
const keyRing = new KeyRing(KeyRing.generateKeySpec('t'));

async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('dispatchers on several replicas share one bucket (real NATS, real HTTP)', () => {
  let nc: NatsConnection;
  let prefix: string;
  let store: JobStore;
  let server: Server;
  const received = new Map<string, number>();
  let webhook: WebhookState;
  /** A second webhook whose endpoint holds every request until the test lets it answer. */
  let slowWebhook: WebhookState | undefined;
  const replicas: { dispatcher: Dispatcher; index: JobIndex; watch: { stop(): void } }[] = [];
  const sender = new Sender({ connectTimeoutMs: 1_000, responseTimeoutMs: 2_000, publicOnly: false });

  const newJob = (eventId: string) => aNewJob(eventId, webhook.id);
  const startReplica = async () => {
    const index = new JobIndex();
    const watch = await store.watch(index.observe, () => undefined);
    const dispatcher = new Dispatcher({
      store,
      index,
      sender,
      keyRing,
      webhook: async (id) => (id === slowWebhook?.id ? slowWebhook : webhook),
      leaseMs: 1_500,
      backoff: { base_ms: 100, max_ms: 500 },
      concurrency: 8,
      concurrencyPerWebhook: 4,
      pollMs: 50,
      logger,
    });
    dispatcher.start();
    replicas.push({ dispatcher, index, watch });
    return index;
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const id = String(request.headers['webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
      request.resume();
      request.on('end', () => response.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    webhook = {
      status: 'active',
      id: 'webhook_int',
      environment: 'sandbox',
      organization_domain: null,
      organization_id: null,
      name: 'int',
      active: true,
      event_codes: ['user.created'],
      target_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
      signature_keys: [{ sealed: keyRing.seal(generateSignatureKey()), expires_at: null }],
      inserted_at: '',
      updated_at: '',
    };
    nc = await connect({ servers: testNatsUrl() });
    prefix = testPrefix('wd');
    store = await JobStore.open(nc, prefix, 1);
  });
  afterAll(async () => {
    for (const replica of replicas) {
      await replica.dispatcher.stop(2_000);
      replica.watch.stop();
    }
    await sender.close();
    await (await nc.jetstreamManager()).streams.delete(`KV_${prefix}_webhook_jobs`);
    await nc.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('delivers every job once when two replicas compete for them', async () => {
    const index = await startReplica();
    await startReplica();
    const ids = Array.from({ length: 200 }, (_, i) => `flood-${i}`);
    await Promise.all(ids.map((id) => store.enqueue(newJob(id))));
    await waitFor(() => ids.every((id) => received.has(id)));
    await waitFor(() => index.page({ environment: 'sandbox', state: 'completed' }, 0, 1).total === ids.length);
    expect(ids.map((id) => received.get(id))).toEqual(ids.map(() => 1));
  });

  it('takes over a job whose replica died while executing it, once its lease expired', async () => {
    // Another replica claimed it, then died: nobody will record its attempt.
    const leaseUntil = new Date(Date.now() + 1_000).toISOString();
    const { job } = await store.enqueue({
      ...newJob('orphan'),
      state: 'executing',
      attempt: 1,
      lease: { owner: 'dead', until: leaseUntil },
    });
    expect(job.lease?.owner).toBe('dead');
    await waitFor(async () => (await store.get(job.id))?.job.state === 'completed');
    expect((await store.get(job.id))?.job).toMatchObject({ attempt: 2, state: 'completed' });
    expect(received.get('orphan')).toBe(1);
  });

  it('deletes final jobs after the retention period and keeps pending ones', async () => {
    const index = replicas[0]?.index as JobIndex;
    const done = await store.enqueue(newJob('to-forget'));
    await waitFor(async () => (await store.get(done.job.id))?.job.state === 'completed');
    const pending = await store.enqueue({ ...newJob('kept'), state: 'scheduled', scheduled_at: '2999-01-01T00:00:00.000Z' });
    const retention = startRetention({ store, index, retentionMs: 1_000, logger });
    try {
      await waitFor(async () => (await store.get(done.job.id)) === null);
      expect((await store.get(pending.job.id))?.job.state).toBe('scheduled');
    } finally {
      retention.stop();
    }
  });

  it('keeps a slow webhook to its share of the slots, so another webhook is still delivered', async () => {
    const held: (() => void)[] = [];
    let open = 0;
    let mostOpen = 0;
    const slow = createServer((request, response) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      request.resume();
      held.push(() => response.writeHead(200).end());
      response.on('close', () => open--);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    slowWebhook = { ...webhook, id: 'webhook_slow', target_url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/in` };
    try {
      const slowIds = Array.from({ length: 20 }, (_, i) => `slow-${i}`);
      await Promise.all(slowIds.map((id) => store.enqueue(aNewJob(id, 'webhook_slow'))));
      await waitFor(() => open >= 2 * 4);
      const fastIds = Array.from({ length: 20 }, (_, i) => `beside-slow-${i}`);
      await Promise.all(fastIds.map((id) => store.enqueue(newJob(id))));
      await waitFor(() => fastIds.every((id) => received.has(id)), 10_000);
      // Two replicas, at most 4 deliveries each to one webhook: 8 requests held, never 16.
      expect(mostOpen).toBe(8);
    } finally {
      for (const answer of held.splice(0)) answer();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});
