import { randomUUID } from 'node:crypto';
import { JetStreamEventStore } from '@sesame/platform/event-store';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import type { System } from '../test/support/system';
import { bareFastifyBaseline, rawPublishBaseline, rawRs256Baseline } from './lib/baselines';
import { load, timedOf, warnFailures } from './lib/load';
import { figuresAgainst, report } from './lib/report';
import type { Figure } from './lib/report';
import { timed } from './lib/timing';
import { startBenchSystem } from './lib/system';
import { serviceNatsConnection } from './lib/nats';

/** Issue 2 figures: gateway reads, organization writes, event appends, token grants; each next to its raw baseline. */
async function gatewayFigures(system: System): Promise<Figure[]> {
  const token = await system.token();
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await system.request('POST', '/api/v2/organizations', { body: { name: 'Bench Read' } });
  if (created.status !== 201) throw new Error(`setup failed: ${created.status}`);

  const baseline = { ...timedOf(await bareFastifyBaseline()), name: 'bare Fastify hello-world', unit: 'req/s' };
  const read = await load({ url: `${system.baseUrl}/api/v2/organizations/bench-read`, headers: auth });
  const run = randomUUID().slice(0, 8);
  const write = await load({
    url: `${system.baseUrl}/api/v2/organizations`,
    method: 'POST',
    headers: auth,
    bodyFor: (i) => JSON.stringify({ name: `Bench ${run} ${i}` }),
  });
  const grant = await load({
    url: `${system.baseUrl}/oauth/token`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: system.apiKey.clientId,
      client_secret: system.apiKey.clientSecret,
    }),
  });
  warnFailures({ read, write, grant });
  const signing = await rawRs256Baseline({ seconds: 3 });
  return [
    ...figuresAgainst('GET organization (authenticated)', { ...timedOf(read), unit: 'req/s' }, baseline),
    { name: 'POST organization (create) req/s', value: write.requestsPerSecond, unit: 'req/s' },
    { name: 'POST organization p50', value: write.p50Ms, unit: 'ms' },
    { name: 'POST organization p99', value: write.p99Ms, unit: 'ms' },
    {
      name: 'token grants (client_credentials) /s',
      value: grant.requestsPerSecond,
      unit: 'req/s',
      baseline: { name: 'raw RS256 signing, one core', value: signing.perSecond, unit: 'sig/s' },
    },
    { name: 'token grant p99', value: grant.p99Ms, unit: 'ms' },
  ];
}

async function appendFigures(): Promise<Figure[]> {
  const nc = await serviceNatsConnection('identity');
  const prefix = testPrefix('b');
  const store = await JetStreamEventStore.open(nc, {
    streamName: `${prefix}_BENCH`.toUpperCase(),
    subjectPrefix: `${prefix}.bench`,
  });
  const count = Number(process.env.BENCH_APPENDS ?? 5_000);
  const concurrency = 32;
  const data = { name: 'Acme Corp', allowed_email_domains: ['acme.com'], color: null, at: new Date().toISOString() };
  const metadata = { correlationId: randomUUID(), occurredAt: new Date().toISOString() };

  const rate = async (task: (i: number) => Promise<unknown>) => (await timed({ count }, concurrency, task)).perSecond;
  const raw = (await rawPublishBaseline({ servers: testNatsUrl() }, { count }, concurrency)).perSecond;
  const appends = await rate((i) =>
    store.appendToStream(`organization-o${i}`, [{ type: 'OrganizationCreated', data }], {
      expectedRevision: 'no_stream',
      metadata,
    }),
  );
  const updates = await rate((i) =>
    store.appendToStream(`organization-o${i}`, [{ type: 'OrganizationUpdated', data }], { expectedRevision: 0, metadata }),
  );
  await store.destroy();
  await nc.close();
  return [
    {
      name: 'event append, new stream (no_stream) /s',
      value: appends,
      unit: 'appends/s',
      baseline: { name: 'raw JetStream publish', value: raw, unit: 'msgs/s' },
    },
    {
      name: 'event append, expected revision /s',
      value: updates,
      unit: 'appends/s',
      baseline: { name: 'raw JetStream publish', value: raw, unit: 'msgs/s' },
    },
  ];
}

async function main() {
  const appends = await appendFigures();
  const system = await startBenchSystem();
  try {
    const gateway = await gatewayFigures(system);
    report('foundation', [...gateway, ...appends], {
      concurrency: 'autocannon 16 connections; appends 32 in flight',
      seconds: Number(process.env.BENCH_SECONDS ?? 10),
    });
  } finally {
    await system.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
