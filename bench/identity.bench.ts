import { randomUUID } from 'node:crypto';
import { Aggregate, AggregateView, MemoryReadModelStore, ProjectionRunner, createLogger } from '@sesame/platform';
import { JetStreamEventStore } from '@sesame/platform/event-store';
import type { AggregateViewDefinition, EventMetadata } from '@sesame/platform';
import { testNatsUrl, testPrefix } from '@sesame/platform/testing';
import { organizationsView } from '../services/identity/src/organizations/projections/organizations.projection';
import { userMetakeysView } from '../services/identity/src/user-metakeys/projections/user-metakeys.projection';
import { userMetakeyAggregate } from '../services/identity/src/user-metakeys/commands/user-metakey.aggregate';
import { userAggregate } from '../services/identity/src/users/commands/user.aggregate';
import { organizationAggregate } from '../services/identity/src/organizations/commands/organization.aggregate';
import { createUser } from '../services/identity/src/users/commands/user.commands';
import type { Tenant } from '../services/identity/src/users/domain/user.decider';
import { usersView } from '../services/identity/src/users/projections/users.projection';
import { unlimitedUsers } from '../services/identity/src/users/plan-limit/user-limits';
import type { UsersDeps } from '../services/identity/src/users/users.deps';
import type { System } from '../test/support/system';
import { bareFastifyBaseline, rawPublishBaseline } from './lib/baselines';
import { cpuPerRequestFigure, withCpu } from './lib/cpu';
import { startRawHop } from './lib/raw-hop';
import { load, timedOf, warnFailures } from './lib/load';
import { figuresAgainst, report } from './lib/report';
import type { Figure } from './lib/report';
import { seedUsers } from './lib/seed';
import { timed } from './lib/timing';
import { startBenchSystem } from './lib/system';
import { serviceNatsConnection } from './lib/nats';

const creations = Number(process.env.BENCH_USERS ?? 2_000);
const concurrency = 16;

/**
 * User creation as the identity service runs it: email reservation + append + inline projection,
 * on the real JetStream event store, next to a raw JetStream publish at the same concurrency.
 */
async function creationFigures(): Promise<Figure[]> {
  const nc = await serviceNatsConnection('identity');
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
  const users: UsersDeps = {
    users: new Aggregate(
      {
        eventStore,
        afterCommit: (stream, result) =>
          projections.applyInline(stream, result.revision, result.state, { position: 0n, events: result.events }),
      },
      userAggregate,
    ),
    eventStore,
    metadata,
    view: view(usersView as never) as UsersDeps['view'],
    organizations: {
      view: view(organizationsView as never) as UsersDeps['organizations']['view'],
      organizations: new Aggregate({ eventStore }, organizationAggregate),
    },
    metakeys: {
      metakeys: new Aggregate({ eventStore }, userMetakeyAggregate),
      view: view(userMetakeysView as never) as UsersDeps['metakeys']['view'],
    },
    limits: unlimitedUsers,
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
  const raw = await rawPublishBaseline({ servers: testNatsUrl() }, { count: creations }, concurrency);
  const created = await timed({ count: creations }, concurrency, (i) =>
    createUser(users, tenant, { email: `user${i}@bench.example`, profile: { given_name: `User ${i}` } }, 'api', metadata()),
  );
  const stored = await users.view.documents.count({ scope: `${tenant.organization_id}:sandbox` });
  if (stored !== creations) throw new Error(`${stored} users in the read model, ${creations} expected`);
  await projections.stop();
  await eventStore.destroy();
  await nc.close();
  return figuresAgainst(
    'user creation (reserve + append + projection)',
    { ...created, unit: 'users/s' },
    { ...raw, name: 'raw JetStream publish', unit: 'msgs/s' },
  );
}

/** User creation and lookups by id and by email through the gateway, next to bare Fastify. */
async function gatewayFigures(system: System): Promise<Figure[]> {
  const token = await system.token();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const organization = await system.request('POST', '/api/v2/organizations', { body: { name: 'Bench Users' } });
  if (organization.status !== 201) throw new Error(`setup failed: ${organization.status}`);
  const base = `${system.baseUrl}/api/v2/org/bench-users/users`;
  const seeded = await seedUsers(system, 'bench-users', 300, (i) => `seed${i}@bench.example`);
  const pick = (i: number) => seeded[i % seeded.length] as { id: string; email: string };

  const baseline = { ...timedOf(await bareFastifyBaseline()), name: 'bare Fastify hello-world', unit: 'req/s' };
  const sesame = () => system.processIds();
  const hop = await startRawHop(system.natsOptions('bench-raw-hop'));
  const rawHop = await withCpu(
    () => ({ ...hop.processIds(), 'nats-server': sesame()['nats-server'] as number }),
    () => load({ url: hop.url }),
  ).finally(() => hop.stop());
  const hopBaseline = { ...timedOf(rawHop.result), name: 'raw hop (bare Fastify, nats.js request, responder)', unit: 'req/s' };
  const run = randomUUID().slice(0, 8);
  const create = await withCpu(sesame, () =>
    load({ url: base, method: 'POST', headers, bodyFor: (i) => JSON.stringify({ email: `http${i}.${run}@bench.example` }) }),
  );
  const byId = await withCpu(sesame, () =>
    load({ url: base, headers, pathFor: (i) => `/api/v2/org/bench-users/users/${pick(i).id}` }),
  );
  const byEmail = await withCpu(sesame, () =>
    load({ url: base, headers, pathFor: (i) => `/api/v2/org/bench-users/users/${encodeURIComponent(pick(i).email)}` }),
  );
  warnFailures({ create: create.result, byId: byId.result, byEmail: byEmail.result });
  const hopCpu = { name: 'raw hop', cpu: rawHop.cpu, requests: rawHop.result.requests };
  return [
    ...figuresAgainst('POST user through the gateway', { ...timedOf(create.result), unit: 'req/s' }, baseline),
    cpuPerRequestFigure('POST user through the gateway', create.cpu, create.result.requests),
    ...figuresAgainst('GET user by id', { ...timedOf(byId.result), unit: 'req/s' }, hopBaseline),
    cpuPerRequestFigure('GET user by id', byId.cpu, byId.result.requests, hopCpu),
    ...figuresAgainst('GET user by email', { ...timedOf(byEmail.result), unit: 'req/s' }, hopBaseline),
    cpuPerRequestFigure('GET user by email', byEmail.cpu, byEmail.result.requests, hopCpu),
  ];
}

async function main() {
  const creation = await creationFigures();
  const system = await startBenchSystem();
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
