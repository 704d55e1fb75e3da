import { createPrivateKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { JSONCodec, connect } from 'nats';
import { JetStreamEventStore } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { System } from '../test/support/system';
import { startBareFastify } from './lib/bare-fastify';
import { load } from './lib/load';
import { report } from './lib/report';
import type { Figure } from './lib/report';

/** Issue 2 figures: gateway reads, organization writes, event appends, token grants; each next to its raw baseline. */
async function gatewayFigures(system: System): Promise<Figure[]> {
  const token = await system.token();
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await system.request('POST', '/api/v2/organizations', { body: { name: 'Bench Read' } });
  if (created.status !== 201) throw new Error(`setup failed: ${created.status}`);

  const bare = await startBareFastify();
  const baseline = await load({ url: bare.url });
  await bare.stop();
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
  for (const [name, result] of Object.entries({ read, write, grant }))
    if (result.errors + result.non2xx > 0) console.warn(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);

  const signing = await rawSigningRate();
  return [
    {
      name: 'GET organization (authenticated) req/s',
      value: read.requestsPerSecond,
      unit: 'req/s',
      baseline: { name: 'bare Fastify hello-world', value: baseline.requestsPerSecond, unit: 'req/s' },
    },
    {
      name: 'GET organization p50',
      value: read.p50Ms,
      unit: 'ms',
      baseline: { name: 'bare Fastify p50', value: baseline.p50Ms, unit: 'ms' },
    },
    {
      name: 'GET organization p99',
      value: read.p99Ms,
      unit: 'ms',
      baseline: { name: 'bare Fastify p99', value: baseline.p99Ms, unit: 'ms' },
    },
    { name: 'POST organization (create) req/s', value: write.requestsPerSecond, unit: 'req/s' },
    { name: 'POST organization p50', value: write.p50Ms, unit: 'ms' },
    { name: 'POST organization p99', value: write.p99Ms, unit: 'ms' },
    {
      name: 'token grants (client_credentials) /s',
      value: grant.requestsPerSecond,
      unit: 'req/s',
      baseline: { name: 'raw RS256 signing, one core', value: signing, unit: 'sig/s' },
    },
    { name: 'token grant p99', value: grant.p99Ms, unit: 'ms' },
  ];
}

/** RS256 JWT signatures per second on one core with jose, for 3 seconds. */
async function rawSigningRate(): Promise<number> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const started = performance.now();
  let count = 0;
  while (performance.now() - started < 3_000) {
    await new SignJWT({ scp: ['organizations:read'] })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    count++;
  }
  return (count * 1_000) / (performance.now() - started);
}

async function appendFigures(): Promise<Figure[]> {
  const nc = await connect({ servers: testNatsUrl() });
  const prefix = testPrefix('b');
  const store = await JetStreamEventStore.open(nc, {
    streamName: `${prefix}_BENCH`.toUpperCase(),
    subjectPrefix: `${prefix}.bench`,
  });
  const js = nc.jetstream();
  const codec = JSONCodec();
  const count = Number(process.env.BENCH_APPENDS ?? 5_000);
  const concurrency = 32;
  const data = { name: 'Acme Corp', allowed_email_domains: ['acme.com'], color: null, at: new Date().toISOString() };
  const metadata = { correlationId: randomUUID(), occurredAt: new Date().toISOString() };

  const timed = async (task: (i: number) => Promise<unknown>) => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) await task(next++);
      }),
    );
    return (count * 1_000) / (performance.now() - started);
  };
  const raw = await timed((i) =>
    js.publish(`${prefix}.bench.events.raw.${i}`, codec.encode({ v: 1, events: [{ type: 'Raw', data }] })),
  );
  const appends = await timed((i) =>
    store.appendToStream(`organization-o${i}`, [{ type: 'OrganizationCreated', data }], {
      expectedRevision: 'no_stream',
      metadata,
    }),
  );
  const updates = await timed((i) =>
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
  const system = await System.start({ env: { SESAME_LOG_LEVEL: 'warn' } });
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
