import { randomUUID } from 'node:crypto';
import { bareFastifyBaseline } from './lib/baselines';
import { load, timedOf, warnFailures } from './lib/load';
import { figuresAgainst, report } from './lib/report';
import { scimUser, seedScimDirectory } from './lib/seed';
import { startBenchSystem } from './lib/system';

const seeded = Number(process.env.BENCH_SCIM_USERS ?? 1_000);

/** SCIM user creations and `userName eq` lookups through the gateway, next to bare Fastify in the same run. */
async function main() {
  const system = await startBenchSystem();
  try {
    const organization = await system.request('POST', '/api/v2/organizations', { body: { name: 'Bench Scim' } });
    if (organization.status !== 201) throw new Error(`setup failed: ${organization.status}`);
    const directory = await seedScimDirectory(system, organization.body.domain, seeded, (i) => `seed${i}@bench.example`);
    const headers = { authorization: `Bearer ${directory.token}`, 'content-type': 'application/scim+json' };
    const baseline = { ...timedOf(await bareFastifyBaseline()), name: 'bare Fastify hello-world', unit: 'req/s' };
    const run = randomUUID().slice(0, 8);
    const create = await load({
      url: `${system.baseUrl}${directory.path}/Users`,
      method: 'POST',
      headers,
      bodyFor: (i) => scimUser(`http${i}.${run}@bench.example`),
    });
    const lookup = await load({
      url: `${system.baseUrl}${directory.path}/Users`,
      headers,
      pathFor: (i) => `${directory.path}/Users?filter=${encodeURIComponent(`userName eq "seed${i % seeded}@bench.example"`)}`,
    });
    warnFailures({ create, lookup });
    report(
      'scim',
      [
        ...figuresAgainst('SCIM POST /Users', { ...timedOf(create), unit: 'req/s' }, baseline),
        ...figuresAgainst('SCIM userName eq lookup', { ...timedOf(lookup), unit: 'req/s' }, baseline),
      ],
      { concurrency: 'autocannon 16 connections', seconds: Number(process.env.BENCH_SECONDS ?? 10), users_in_directory: seeded },
    );
  } finally {
    await system.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
