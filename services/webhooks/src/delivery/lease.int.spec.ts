import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { KeyRing, createLogger } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import type { JobCommand } from '../jobs/domain/job.decider';
import { JobIndex } from '../jobs/job-index';
import { JobStore } from '../jobs/job-store';
import { aNewJob } from '../jobs/job.spec-kit';
import type { WebhookState } from '../webhooks/domain/webhook.decider';
import { Dispatcher } from './dispatcher';
import { Lease } from './lease';
import { Sender } from './sender';
import { generateSignatureKey } from './signing';

const logger = createLogger('test', 'silent');
const keyRing = new KeyRing(KeyRing.generateKeySpec('t'));
const leaseMs = 1_000;
/** The receiver answers after longer than a lease (but within the response timeout). */
const answerAfterMs = 1_800;

async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The store as a replica cut off from NATS for its records sees it: every record refused `times` times. */
function refusingRecords(store: JobStore, times: number): JobStore {
  let refused = 0;
  const flaky = Object.create(store) as JobStore;
  flaky.transition = (id: number, command: JobCommand, known) => {
    if (command.type === 'RecordAttempt' && refused++ < times) return Promise.reject(new Error('TIMEOUT'));
    return store.transition(id, command, known);
  };
  return flaky;
}

describe('the lease of a job while two replicas deliver (real NATS, slow real HTTP receiver)', () => {
  let nc: NatsConnection;
  let prefix: string;
  let store: JobStore;
  let server: Server;
  const received = new Map<string, number>();
  let webhook: WebhookState;
  const replicas: { dispatcher: Dispatcher; watch: { stop(): void } }[] = [];
  const sender = new Sender({ connectTimeoutMs: 1_000, responseTimeoutMs: 3_000, publicOnly: false });

  const startReplica = async (jobs: JobStore = store) => {
    const index = new JobIndex();
    const watch = await store.watch(index.observe, () => undefined);
    const dispatcher = new Dispatcher({
      store: jobs,
      index,
      sender,
      keyRing,
      webhook: async () => webhook,
      leaseMs,
      backoff: { base_ms: 100, max_ms: 500 },
      concurrency: 8,
      concurrencyPerWebhook: 8,
      pollMs: 50,
      logger,
    });
    dispatcher.start();
    replicas.push({ dispatcher, watch });
  };
  const stopReplicas = async () => {
    for (const replica of replicas.splice(0)) {
      await replica.dispatcher.stop(5_000);
      replica.watch.stop();
    }
  };
  const completed = async (id: number) => (await store.get(id))?.job.state === 'completed';

  beforeAll(async () => {
    server = createServer((request, response) => {
      const id = String(request.headers['webhook-id']);
      received.set(id, (received.get(id) ?? 0) + 1);
      request.resume();
      request.on('end', () => setTimeout(() => response.writeHead(200).end(), answerAfterMs));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    webhook = {
      status: 'active',
      id: 'webhook_lease',
      environment: 'sandbox',
      organization_domain: null,
      organization_id: null,
      name: 'lease',
      active: true,
      event_codes: ['user.created'],
      target_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
      signature_keys: [{ sealed: keyRing.seal(generateSignatureKey()), expires_at: null }],
      inserted_at: '',
      updated_at: '',
    };
    nc = await connect({ servers: testNatsUrl() });
    prefix = testPrefix('wl');
    store = await JobStore.open(nc, prefix, 1);
  });
  afterEach(stopReplicas);
  afterAll(async () => {
    await sender.close();
    await (await nc.jetstreamManager()).streams.delete(`KV_${prefix}_webhook_jobs`);
    await nc.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('never writes a renewal and the outcome over the same revision: a renewal under way is waited for, none starts meanwhile', async () => {
    const writes: string[] = [];
    const slow = Object.create(store) as JobStore;
    slow.transition = async (id: number, command: JobCommand, known) => {
      writes.push(`start ${command.type}`);
      // Slower than the renewal period: without the pause, a renewal would start during the record.
      await new Promise((resolve) => setTimeout(resolve, command.type === 'RenewLease' ? 150 : 250));
      try {
        return await store.transition(id, command, known);
      } finally {
        writes.push(`end ${command.type}`);
      }
    };
    const index = new JobIndex();
    const enqueued = await store.enqueue(aNewJob(randomUUID(), webhook.id));
    const now = () => new Date().toISOString();
    const claim = { type: 'ClaimJob' as const, data: { owner: 'replica-a', lease_ms: 300, now: now() } };
    const claimed = (await store.transition(enqueued.job.id, claim, enqueued)) as NonNullable<
      Awaited<ReturnType<JobStore['transition']>>
    >;
    index.apply(enqueued.job.id, claimed);
    const lease = new Lease({ store: slow, index, owner: 'replica-a', leaseMs: 300, logger }, enqueued.job.id, claimed);
    await waitFor(() => writes.includes('start RenewLease'));
    const outcome = { kind: 'delivered' as const };
    const data = { owner: 'replica-a', outcome, backoff: { base_ms: 100, max_ms: 500 }, jitter: 0, now: now() };
    await lease.recording(() => slow.transition(enqueued.job.id, { type: 'RecordAttempt', data }, index.stored(enqueued.job.id)));
    await lease.release();
    const recordAt = writes.indexOf('start RecordAttempt');
    expect(writes[recordAt - 1]).toBe('end RenewLease');
    expect(writes[recordAt + 1]).toBe('end RecordAttempt');
    expect((await store.get(enqueued.job.id))?.job.state).toBe('completed');
  });

  it('delivers once an event whose answer takes longer than a lease: the holder renews it, the other replica does not take over', async () => {
    await startReplica();
    await startReplica();
    const ids = Array.from({ length: 12 }, (_, i) => `slow-${i}`);
    const jobs = await Promise.all(ids.map((id) => store.enqueue(aNewJob(id, webhook.id))));
    await waitFor(async () => (await Promise.all(jobs.map(({ job }) => completed(job.id)))).every(Boolean));
    await new Promise((resolve) => setTimeout(resolve, 2 * leaseMs));
    expect(ids.map((id) => received.get(id))).toEqual(ids.map(() => 1));
    for (const { job } of jobs) expect((await store.get(job.id))?.job).toMatchObject({ state: 'completed', attempt: 1 });
  });

  it('records an attempt whose first records failed (NATS not answering), without delivering it again', async () => {
    await startReplica(refusingRecords(store, 2));
    const { job } = await store.enqueue(aNewJob('record-retried', webhook.id));
    await waitFor(() => completed(job.id));
    expect((await store.get(job.id))?.job).toMatchObject({ state: 'completed', attempt: 1 });
    expect(received.get('record-retried')).toBe(1);
  });

  it('leaves no job executing when its holder never manages to record: it is attempted again once the lease ran out', async () => {
    await startReplica(refusingRecords(store, 9));
    const { job } = await store.enqueue(aNewJob('never-recorded', webhook.id));
    await waitFor(() => received.get('never-recorded') === 1);
    await waitFor(() => completed(job.id));
    expect((await store.get(job.id))?.job).toMatchObject({ state: 'completed', attempt: 2 });
    expect(received.get('never-recorded')).toBe(2);
  });
});
