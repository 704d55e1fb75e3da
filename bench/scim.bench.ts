import { randomUUID } from 'node:crypto';
import { bareFastifyBaseline } from './lib/baselines';
import { settle } from './lib/cpu';
import { load, timedOf, warnFailures } from './lib/load';
import { figuresAgainst, report } from './lib/report';
import { scimUser, seedScimDirectory } from './lib/seed';
import { startBenchSystem } from './lib/system';

/** An enterprise directory (BENCH_SCIM_USERS to change it; seeding 50,000 takes minutes). */
const seeded = Number(process.env.BENCH_SCIM_USERS ?? 50_000);
const seedConcurrency = 16;

/** The filters providers look users up by: each must be answered by index, not by reading the directory. */
const lookups: { name: string; filterOf: (i: number) => string }[] = [
  { name: 'userName eq', filterOf: (i) => `userName eq "seed${i}@bench.example"` },
  { name: 'externalId eq', filterOf: (i) => `externalId eq "ext-${i}"` },
  { name: 'emails.value eq', filterOf: (i) => `emails.value eq "seed${i}@bench.example"` },
  {
    name: 'emails[type eq "work"].value eq (Entra ID)',
    filterOf: (i) => `emails[type eq "work"].value eq "seed${i}@bench.example"`,
  },
  { name: 'displayName eq', filterOf: (i) => `displayName eq "Seed User ${i}"` },
];

/**
 * SCIM at enterprise scale through the gateway, next to bare Fastify in the same run: provisioning
 * a directory of `seeded` users, creations into it, and a lookup by each filter providers use.
 */
async function main() {
  const system = await startBenchSystem();
  try {
    const organization = await system.request('POST', '/api/v2/organizations', { body: { name: 'Bench Scim' } });
    if (organization.status !== 201) throw new Error(`setup failed: ${organization.status}`);
    const directory = await seedScimDirectory(
      system,
      organization.body.domain,
      seeded,
      (i) => ({ userName: `seed${i}@bench.example`, externalId: `ext-${i}`, displayName: `Seed User ${i}` }),
      seedConcurrency,
    );
    const seededSettle = await settle(() => system.processIds());
    const headers = { authorization: `Bearer ${directory.token}`, 'content-type': 'application/scim+json' };
    const baseline = { ...timedOf(await bareFastifyBaseline()), name: 'bare Fastify hello-world', unit: 'req/s' };
    const run = randomUUID().slice(0, 8);
    const create = await load({
      url: `${system.baseUrl}${directory.path}/Users`,
      method: 'POST',
      headers,
      bodyFor: (i) => scimUser(`http${i}.${run}@bench.example`),
    });
    const measured: Record<string, Awaited<ReturnType<typeof load>>> = { create };
    // Each phase measures its own requests: the previous one's projections and webhook fan-out drain first.
    const settledSeconds = await settle(() => system.processIds());
    for (const { name, filterOf } of lookups)
      measured[name] = await load({
        url: `${system.baseUrl}${directory.path}/Users`,
        headers,
        pathFor: (i) => `${directory.path}/Users?filter=${encodeURIComponent(filterOf(i % seeded))}`,
      });
    warnFailures(measured);
    const provisioning = {
      name: `SCIM provisioning of ${seeded} users (${seedConcurrency} at a time)`,
      value: seeded / directory.seconds,
      unit: 'users/s',
    };
    report(
      'scim',
      [
        provisioning,
        ...figuresAgainst('SCIM POST /Users', { ...timedOf(create), unit: 'req/s' }, baseline),
        ...lookups.flatMap(({ name }) =>
          figuresAgainst(
            `SCIM ${name} lookup`,
            { ...timedOf(measured[name] as Awaited<ReturnType<typeof load>>), unit: 'req/s' },
            baseline,
          ),
        ),
      ],
      {
        concurrency: 'autocannon 16 connections',
        seconds: Number(process.env.BENCH_SECONDS ?? 10),
        users_in_directory: seeded,
        settled: `each phase starts once the system is quiet (under 10% of a core): ${seededSettle.toFixed(1)} s after the seeding, ${settledSeconds.toFixed(1)} s after the creations`,
      },
    );
  } finally {
    await system.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
