import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { generateSignatureKey, signatureHeaders } from '../services/webhooks/src/delivery/signing';
import { System } from '../test/support/system';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { cpuBreakdown, cpuPerRequestFigure, cpuSecondsOf, withCpu } from './lib/cpu';
import { percentile, report } from './lib/report';
import type { Figure } from './lib/report';

const webhookCount = Number(process.env.BENCH_WEBHOOKS ?? 10);
const triggers = Number(process.env.BENCH_WEBHOOK_TRIGGERS ?? 1_000);
const concurrency = 8;
const idleEvents = Number(process.env.BENCH_WEBHOOK_IDLE_EVENTS ?? 200);

/** Raw Standard Webhooks signing (HMAC-SHA256 of id.timestamp.body) of a typical 1 KB event. */
function signingRate(): number {
  const key = generateSignatureKey();
  const body = JSON.stringify({ code: 'user.created', data: { padding: 'x'.repeat(900) } });
  const count = 100_000;
  const started = performance.now();
  for (let i = 0; i < count; i++) signatureHeaders([key], `evt_${i}`, 1_767_225_600, body);
  return (count * 1_000) / (performance.now() - started);
}

/** Writes one delivery makes to the job bucket: event marker, job, claim, outcome. */
const writesPerDelivery = 4;

/**
 * The floor of a delivery: raw compare-and-set writes of a ~1.5 KB job to a JetStream key-value
 * bucket on the system's own nats-server (64 in flight, one watcher as a replica has), and the
 * nats-server CPU each write costs. A delivery makes `writesPerDelivery` of them.
 */
async function kvWriteFloor(system: System): Promise<{ rate: number; natsCpuMs: number }> {
  const nc = await connect(system.natsOptions());
  const bucket = `${system.prefix}_bench_kv`;
  const kv = await nc.jetstream().views.kv(bucket, { history: 1 });
  const watcher = await kv.watch({ key: 'job.>' });
  void (async () => {
    for await (const entry of watcher) void entry.revision;
  })();
  const value = new TextEncoder().encode(JSON.stringify({ padding: 'x'.repeat(1_500) }));
  const count = 8_000;
  const natsPid = system.nats.pid as number;
  const cpuBefore = cpuSecondsOf(natsPid);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < count) {
        const key = `job.${next++}`;
        const revision = await kv.create(key, value);
        await kv.update(key, value, revision);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1_000;
  const natsCpuMs = ((cpuSecondsOf(natsPid) - cpuBefore) * 1_000) / (2 * count);
  watcher.stop();
  await kv.destroy();
  await nc.close();
  return { rate: (2 * count) / seconds, natsCpuMs };
}

/**
 * Deliveries through the whole system: `triggers` test events fanned out to `webhookCount`
 * webhooks (10,000 jobs by default), delivered to a local receiver. Measures deliveries per
 * second and the delay from the event to its first delivery attempt.
 */
async function deliveryFigures(system: System, receiver: WebhookReceiver, notes: Record<string, unknown>): Promise<Figure[]> {
  const code = 'totp.challenge.succeeded';
  for (let i = 0; i < webhookCount; i++) {
    const created = await system.request('POST', '/api/v2/webhooks', {
      body: { name: `bench ${i}`, event_codes: [code], target_url: `${receiver.url}/bench` },
    });
    if (created.status !== 201) throw new Error(`setup failed: ${created.status}`);
  }
  const { result, cpu } = await withCpu(system.processIds.bind(system), () => deliverAll(system, receiver, code));
  const expected = triggers * webhookCount;
  notes.cpu_ms_per_delivery_by_process = cpuBreakdown(cpu, expected);
  return [...result, cpuPerRequestFigure('delivery (fan-out, claim, send, record)', cpu, expected)];
}

/** Triggers the events (8 at a time) and waits for every first attempt: throughput and delays. */
async function deliverAll(system: System, receiver: WebhookReceiver, code: string): Promise<Figure[]> {
  const issued = new Map<string, number>();
  const started = performance.now();
  const startedWall = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < triggers) {
        const answer = await system.request('POST', '/api/v2/webhook-events/trigger-test', { body: { event_code: code } });
        if (answer.status !== 201) throw new Error(`trigger failed: ${answer.status}`);
        for (const job of answer.body.data as { args: { id: string; issued_at: string } }[])
          issued.set(job.args.id, Date.parse(job.args.issued_at));
      }
    }),
  );
  const expected = triggers * webhookCount;
  const firstAttempt = new Map<string, number>();
  for (;;) {
    for (const delivery of receiver.deliveries.splice(0)) {
      const key = `${String(delivery.headers['webhook-id'])}/${(JSON.parse(delivery.body) as { webhook_id: string }).webhook_id}`;
      if (!firstAttempt.has(key)) firstAttempt.set(key, delivery.receivedAt);
    }
    if (firstAttempt.size >= expected) break;
    if (performance.now() - started > 1_800_000) throw new Error(`only ${firstAttempt.size} of ${expected} delivered in 30 min`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const elapsed = (Math.max(...firstAttempt.values()) - startedWall) / 1_000;
  const delays = [...firstAttempt.entries()]
    .map(([key, at]) => at - (issued.get(key.split('/')[0] as string) ?? at))
    .sort((a, b) => a - b);
  console.log(`  ${expected} deliveries in ${elapsed.toFixed(1)} s`);
  return [
    { name: 'deliveries per second (whole system, local receiver)', value: expected / elapsed, unit: 'deliveries/s' },
    { name: 'event to first attempt, 10,000-job backlog, p50', value: percentile(delays, 50), unit: 'ms' },
    { name: 'event to first attempt, 10,000-job backlog, p99', value: percentile(delays, 99), unit: 'ms' },
  ];
}

/** Delay from a lone event to its first delivery attempt, events sent one at a time (no backlog). */
async function idleLatency(system: System, receiver: WebhookReceiver): Promise<Figure[]> {
  const code = 'totp.challenge.failed';
  const created = await system.request('POST', '/api/v2/webhooks', {
    body: { name: 'bench latency', event_codes: [code], target_url: `${receiver.url}/latency` },
  });
  if (created.status !== 201) throw new Error(`setup failed: ${created.status}`);
  const delays: number[] = [];
  for (let i = 0; i < idleEvents; i++) {
    const answer = await system.request('POST', '/api/v2/webhook-events/trigger-test', { body: { event_code: code } });
    const job = (answer.body.data as { args: { id: string; issued_at: string } }[])[0];
    if (!job) throw new Error(`trigger failed: ${answer.status}`);
    for (;;) {
      const delivery = receiver.deliveries.find((item) => item.headers['webhook-id'] === job.args.id);
      if (delivery) {
        delays.push(delivery.receivedAt - Date.parse(job.args.issued_at));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  receiver.deliveries.splice(0);
  delays.sort((a, b) => a - b);
  return [
    { name: 'event to first attempt, one at a time, p50', value: percentile(delays, 50), unit: 'ms' },
    { name: 'event to first attempt, one at a time, p99', value: percentile(delays, 99), unit: 'ms' },
  ];
}

async function main() {
  const receiver = await WebhookReceiver.start();
  const system = await System.start({
    env: { SESAME_LOG_LEVEL: 'warn' },
    processEnv: { webhooks: { SESAME_WEBHOOK_CONCURRENCY: '64' } },
  });
  try {
    const signing = signingRate();
    const floor = await kvWriteFloor(system);
    const idle = await idleLatency(system, receiver);
    const notes: Record<string, unknown> = {};
    const delivery = await deliveryFigures(system, receiver, notes);
    const [throughput, ...rest] = delivery as [Figure, ...Figure[]];
    report(
      'webhooks',
      [
        {
          ...throughput,
          baseline: {
            name: `raw JetStream KV writes / ${writesPerDelivery} (the job bucket's floor)`,
            value: floor.rate / writesPerDelivery,
            unit: 'deliveries/s',
          },
        },
        ...idle,
        ...rest,
        { name: 'raw HMAC-SHA256 signing (1 KB event)', value: signing, unit: 'signatures/s' },
        {
          name: `deliveries per second bound by the job bucket alone (raw JetStream KV writes / ${writesPerDelivery})`,
          value: floor.rate / writesPerDelivery,
          unit: 'deliveries/s',
        },
        { name: 'raw JetStream KV write, nats-server CPU', value: Number(floor.natsCpuMs.toFixed(3)), unit: 'ms' },
      ],
      { webhooks: webhookCount, triggers, jobs: triggers * webhookCount, run: randomUUID().slice(0, 8), ...notes },
    );
  } finally {
    await system.stop();
    await receiver.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
