#!/usr/bin/env node
/**
 * Identity benchmarks (issue 3), each next to a raw baseline measured in the same run:
 * - user creation in process: reservation of the email + append + inline projection, on the
 *   real JetStream event store, next to a raw JetStream publish at the same concurrency;
 * - user creation through the gateway (HTTP + auth + NATS + the same path);
 * - user lookup by id and by email through the gateway;
 * - the bare Fastify hello-world baseline for the HTTP figures.
 * Prints a table and writes bench/results/identity.json.
 *   node bench/identity.bench.mjs [--quick]
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { connect } from 'nats';
import { httpLoad, machine, measureOperations, startBareFastify } from './lib/measure.mjs';
import { benchPrefix, deleteStreams, natsUrl, repoRoot, startSystem } from './lib/system.mjs';

const require = createRequire(import.meta.url);
const quick = process.argv.includes('--quick');
const duration = quick ? 3 : 10;
const connections = 10;
const creations = quick ? 300 : 2_000;
const concurrency = 10;

const platform = require(join(repoRoot, 'services/platform/dist/index.js'));
const identity = (path) => require(join(repoRoot, 'services/identity/dist', path));

async function inProcessCreation() {
  const prefix = benchPrefix('bu');
  const nc = await connect({ servers: natsUrl() });
  const logger = platform.createLogger('bench', 'silent');
  const eventStore = await platform.JetStreamEventStore.open(nc, {
    streamName: `${prefix}_identity_events`.toUpperCase(),
    subjectPrefix: `${prefix}.identity`,
  });
  const readModels = new platform.MemoryReadModelStore();
  const projections = new platform.ProjectionRunner(eventStore, readModels, logger);
  const view = (definition) => projections.register(new platform.AggregateView(definition, readModels, eventStore));
  const organizations = { view: view(identity('organizations/projections/organizations.projection.js').organizationsView) };
  const metakeys = { eventStore, view: view(identity('user-metakeys/projections/user-metakeys.projection.js').userMetakeysView) };
  const users = {
    commandDeps: {
      eventStore,
      afterCommit: (stream, result) =>
        projections.applyInline(stream, result.revision, result.state, { position: 0n, events: result.events }),
    },
    eventStore,
    metadata: () => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() }),
    view: view(identity('users/projections/users.projection.js').usersView),
    organizations,
    metakeys,
    now: () => new Date(),
  };
  await projections.start();
  await projections.whenReady();
  const { createUser } = identity('users/commands/user.commands.js');
  const tenant = {
    organization_id: randomUUID(),
    organization_domain: 'bench',
    allowed_email_domains: [],
    environment: 'sandbox',
  };
  const metadata = () => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });
  const run = `${Date.now()}`;
  const created = await measureOperations(creations, concurrency, (i) =>
    createUser(
      users,
      tenant,
      { email: `user${i}.${run}@bench.example`, profile: { given_name: `User ${i}` } },
      'api',
      metadata(),
    ),
  );
  const stored = await users.view.documents.count({ scope: `${tenant.organization_id}:sandbox` });

  // Raw baseline: one JetStream publish per operation (what a single append costs at best).
  const js = nc.jetstream();
  const payload = Buffer.from(JSON.stringify({ v: 1, events: [{ type: 'X', data: { n: 1 } }] }));
  const raw = await measureOperations(creations, concurrency, (i) => js.publish(`${prefix}.identity.events.raw.n${i}`, payload));
  await projections.stop();
  await nc.close();
  await deleteStreams(prefix);
  return { created: { ...created, users_in_read_model: stored }, raw };
}

async function throughGateway() {
  const system = await startSystem();
  try {
    const created = await system.request('POST', '/api/v2/organizations', { name: 'Bench Org' });
    if (created.status !== 201) throw new Error(`organization: ${JSON.stringify(created.body)}`);
    const domain = created.body.domain;
    const seeded = [];
    for (let i = 0; i < (quick ? 100 : 500); i++) {
      const user = await system.request('POST', `/api/v2/org/${domain}/users`, { email: `seed${i}@bench.example` });
      if (user.status !== 201) throw new Error(`seed user: ${JSON.stringify(user.body)}`);
      seeded.push(user.body);
    }
    const headers = { authorization: `Bearer ${system.token}`, 'content-type': 'application/json' };
    const base = `${system.baseUrl}/api/v2/org/${domain}/users`;
    const pick = () => seeded[Math.floor(Math.random() * seeded.length)];
    let counter = 0;
    const run = Date.now();
    const creation = await httpLoad({
      url: base,
      connections,
      duration,
      headers,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ email: `http${counter++}.${run}@bench.example` }) }),
        },
      ],
    });
    const byId = await httpLoad({
      url: base,
      connections,
      duration,
      headers,
      requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/v2/org/${domain}/users/${pick().id}` }) }],
    });
    const byEmail = await httpLoad({
      url: base,
      connections,
      duration,
      headers,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => ({ ...req, path: `/api/v2/org/${domain}/users/${encodeURIComponent(pick().email)}` }),
        },
      ],
    });
    return { creation, byId, byEmail, seeded_users: seeded.length };
  } finally {
    await system.stop();
  }
}

async function main() {
  console.log(`identity benchmarks (${quick ? 'quick' : 'full'}); machine: ${JSON.stringify(machine())}`);
  const fastify = await startBareFastify();
  const baselineBefore = await httpLoad({ url: fastify.url, connections, duration });
  const inProcess = await inProcessCreation();
  const gateway = await throughGateway();
  const baselineAfter = await httpLoad({ url: fastify.url, connections, duration });
  await fastify.stop();

  const rows = [
    ['bare Fastify hello world (before)', baselineBefore.requests_per_second, baselineBefore.p50_ms, baselineBefore.p99_ms],
    ['raw JetStream publish (in process)', inProcess.raw.ops_per_second, inProcess.raw.p50_ms, inProcess.raw.p99_ms],
    [
      'user creation in process (reserve + append + projection)',
      inProcess.created.ops_per_second,
      inProcess.created.p50_ms,
      inProcess.created.p99_ms,
    ],
    ['POST user through the gateway', gateway.creation.requests_per_second, gateway.creation.p50_ms, gateway.creation.p99_ms],
    ['GET user by id through the gateway', gateway.byId.requests_per_second, gateway.byId.p50_ms, gateway.byId.p99_ms],
    [
      'GET user by email through the gateway',
      gateway.byEmail.requests_per_second,
      gateway.byEmail.p50_ms,
      gateway.byEmail.p99_ms,
    ],
    ['bare Fastify hello world (after)', baselineAfter.requests_per_second, baselineAfter.p50_ms, baselineAfter.p99_ms],
  ];
  console.log(`\n${'measure'.padEnd(58)} ${'per second'.padStart(11)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
  for (const [name, rate, p50, p99] of rows)
    console.log(`${name.padEnd(58)} ${String(rate).padStart(11)} ${String(p50).padStart(8)} ${String(p99).padStart(8)}`);

  const results = {
    benchmark: 'identity',
    date: new Date().toISOString(),
    machine: machine(),
    settings: {
      quick,
      http_duration_s: duration,
      http_connections: connections,
      in_process_operations: creations,
      in_process_concurrency: concurrency,
    },
    baseline: { bare_fastify_before: baselineBefore, bare_fastify_after: baselineAfter, raw_jetstream_publish: inProcess.raw },
    user_creation_in_process: inProcess.created,
    user_creation_through_gateway: gateway.creation,
    user_lookup_by_id_through_gateway: gateway.byId,
    user_lookup_by_email_through_gateway: gateway.byEmail,
    seeded_users: gateway.seeded_users,
  };
  mkdirSync(join(repoRoot, 'bench/results'), { recursive: true });
  writeFileSync(join(repoRoot, 'bench/results/identity.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('\nwritten to bench/results/identity.json');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
