import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import { AggregateView, JetStreamEventStore, MemoryReadModelStore, ProjectionRunner, createLogger } from '@sesame/platform';
import type { AggregateViewDefinition, EventMetadata } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { organizationsView } from '../services/identity/src/organizations/projections/organizations.projection';
import { userMetakeysView } from '../services/identity/src/user-metakeys/projections/user-metakeys.projection';
import { createUser } from '../services/identity/src/users/commands/user.commands';
import type { Tenant } from '../services/identity/src/users/domain/user.decider';
import { usersView } from '../services/identity/src/users/projections/users.projection';
import type { UsersEnv } from '../services/identity/src/users/users.env';
import { System } from '../test/support/system';
import { startBareFastify } from './lib/bare-fastify';
import { load } from './lib/load';
import { percentile, report } from './lib/report';
import type { Figure } from './lib/report';

const creations = Number(process.env.BENCH_USERS ?? 2_000);
const concurrency = 16;

/** Runs `task` `count` times with `concurrency` in flight: operations per second and latency percentiles. */
async function timed(count: number, task: (i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        const begin = performance.now();
        await task(index);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (count * 1_000) / (performance.now() - started),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/**
 * User creation as the identity service runs it: email reservation + append + inline projection,
 * on the real JetStream event store, next to a raw JetStream publish at the same concurrency.
 */
async function creationFigures(): Promise<Figure[]> {
  const nc = await connect({ servers: testNatsUrl() });
  const prefix = testPrefix('bi');
  const eventStore = await JetStreamEventStore.open(nc, {
    streamName: `${prefix}_IDENTITY`.toUpperCase(),
    subjectPrefix: `${prefix}.identity`,
  });
  const readModels = new MemoryReadModelStore();
  const projections = new ProjectionRunner(eventStore, readModels, createLogger('bench', 'silent'));
  const view = <S extends object>(definition: AggregateViewDefinition<S, never>) =>
    projections.register(new AggregateView(definition, readModels, eventStore));
  const metadata = (): EventMetadata => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });
  const users: UsersEnv = {
    commandDeps: {
      eventStore,
      afterCommit: (stream, result) =>
        projections.applyInline(stream, result.revision, result.state, { position: 0n, events: result.events }),
    },
    eventStore,
    metadata,
    view: view(usersView as never) as UsersEnv['view'],
    organizations: { view: view(organizationsView as never) as UsersEnv['organizations']['view'] },
    metakeys: { eventStore, view: view(userMetakeysView as never) as UsersEnv['metakeys']['view'] },
    now: () => new Date(),
  };
  await projections.start();
  await projections.whenReady();
  const tenant: Tenant = {
    organization_id: randomUUID(),
    organization_domain: 'bench',
    allowed_email_domains: [],
    environment: 'sandbox',
  };
  const js = nc.jetstream();
  const payload = Buffer.from(JSON.stringify({ v: 1, events: [{ type: 'Raw', data: { email: 'x@bench.example' } }] }));
  const raw = await timed(creations, (i) => js.publish(`${prefix}.identity.events.raw.r${i}`, payload));
  const created = await timed(creations, (i) =>
    createUser(users, tenant, { email: `user${i}@bench.example`, profile: { given_name: `User ${i}` } }, 'api', metadata()),
  );
  const stored = await users.view.documents.count({ scope: `${tenant.organization_id}:sandbox` });
  if (stored !== creations) throw new Error(`${stored} users in the read model, ${creations} expected`);
  await projections.stop();
  await eventStore.destroy();
  await nc.close();
  const rawBaseline = { name: 'raw JetStream publish', value: raw.perSecond, unit: 'msgs/s' };
  return [
    {
      name: 'user creation (reserve + append + projection) /s',
      value: created.perSecond,
      unit: 'users/s',
      baseline: rawBaseline,
    },
    {
      name: 'user creation p50',
      value: created.p50,
      unit: 'ms',
      baseline: { name: 'raw publish p50', value: raw.p50, unit: 'ms' },
    },
    {
      name: 'user creation p99',
      value: created.p99,
      unit: 'ms',
      baseline: { name: 'raw publish p99', value: raw.p99, unit: 'ms' },
    },
  ];
}

/** User creation and lookups by id and by email through the gateway, next to bare Fastify. */
async function gatewayFigures(system: System): Promise<Figure[]> {
  const token = await system.token();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const organization = await system.request('POST', '/api/v2/organizations', { body: { name: 'Bench Users' } });
  if (organization.status !== 201) throw new Error(`setup failed: ${organization.status}`);
  const base = `${system.baseUrl}/api/v2/org/bench-users/users`;
  const seeded: { id: string; email: string }[] = [];
  for (let i = 0; i < 300; i++) {
    const user = await system.request('POST', '/api/v2/org/bench-users/users', { body: { email: `seed${i}@bench.example` } });
    if (user.status !== 201) throw new Error(`seeding failed: ${user.status}`);
    seeded.push(user.body);
  }
  const pick = (i: number) => seeded[i % seeded.length] as { id: string; email: string };

  const bare = await startBareFastify();
  const baseline = await load({ url: bare.url });
  await bare.stop();
  const run = randomUUID().slice(0, 8);
  const create = await load({
    url: base,
    method: 'POST',
    headers,
    bodyFor: (i) => JSON.stringify({ email: `http${i}.${run}@bench.example` }),
  });
  const byId = await load({ url: base, headers, pathFor: (i) => `/api/v2/org/bench-users/users/${pick(i).id}` });
  const byEmail = await load({
    url: base,
    headers,
    pathFor: (i) => `/api/v2/org/bench-users/users/${encodeURIComponent(pick(i).email)}`,
  });
  for (const [name, result] of Object.entries({ create, byId, byEmail }))
    if (result.errors + result.non2xx > 0) console.warn(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);

  const fastify = (label: string, value: number, unit: string) => ({ name: `bare Fastify hello-world ${label}`, value, unit });
  return [
    {
      name: 'POST user through the gateway req/s',
      value: create.requestsPerSecond,
      unit: 'req/s',
      baseline: fastify('req/s', baseline.requestsPerSecond, 'req/s'),
    },
    { name: 'POST user p99', value: create.p99Ms, unit: 'ms', baseline: fastify('p99', baseline.p99Ms, 'ms') },
    {
      name: 'GET user by id req/s',
      value: byId.requestsPerSecond,
      unit: 'req/s',
      baseline: fastify('req/s', baseline.requestsPerSecond, 'req/s'),
    },
    { name: 'GET user by id p50', value: byId.p50Ms, unit: 'ms', baseline: fastify('p50', baseline.p50Ms, 'ms') },
    { name: 'GET user by id p99', value: byId.p99Ms, unit: 'ms', baseline: fastify('p99', baseline.p99Ms, 'ms') },
    {
      name: 'GET user by email req/s',
      value: byEmail.requestsPerSecond,
      unit: 'req/s',
      baseline: fastify('req/s', baseline.requestsPerSecond, 'req/s'),
    },
    { name: 'GET user by email p50', value: byEmail.p50Ms, unit: 'ms', baseline: fastify('p50', baseline.p50Ms, 'ms') },
    { name: 'GET user by email p99', value: byEmail.p99Ms, unit: 'ms', baseline: fastify('p99', baseline.p99Ms, 'ms') },
  ];
}

async function main() {
  const creation = await creationFigures();
  const system = await System.start({ env: { SESAME_LOG_LEVEL: 'warn' } });
  try {
    const gateway = await gatewayFigures(system);
    report('identity', [...creation, ...gateway], {
      concurrency: `autocannon 16 connections; in-process creations ${concurrency} in flight`,
      seconds: Number(process.env.BENCH_SECONDS ?? 10),
      users_created_in_process: creations,
    });
  } finally {
    await system.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
