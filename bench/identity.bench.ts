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
import { unlimitedUsers } from '../services/identity/src/users/plan-limit/user-limits';
import type { UsersEnv } from '../services/identity/src/users/users.env';
import type { System } from '../test/support/system';
import { bareFastifyBaseline, rawPublishBaseline } from './lib/baselines';
import { load, timedOf, warnFailures } from './lib/load';
import { figuresAgainst, report } from './lib/report';
import type { Figure } from './lib/report';
import { seedUsers } from './lib/seed';
import { timed } from './lib/timing';
import { startBenchSystem } from './lib/system';

const creations = Number(process.env.BENCH_USERS ?? 2_000);
const concurrency = 16;

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
  warnFailures({ create, byId, byEmail });
  return [
    ...figuresAgainst('POST user through the gateway', { ...timedOf(create), unit: 'req/s' }, baseline),
    ...figuresAgainst('GET user by id', { ...timedOf(byId), unit: 'req/s' }, baseline),
    ...figuresAgainst('GET user by email', { ...timedOf(byEmail), unit: 'req/s' }, baseline),
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
