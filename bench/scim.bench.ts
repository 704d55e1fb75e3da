import { randomUUID } from 'node:crypto';
import { System } from '../test/support/system';
import { startBareFastify } from './lib/bare-fastify';
import { load } from './lib/load';
import { report } from './lib/report';

const seeded = Number(process.env.BENCH_SCIM_USERS ?? 1_000);

/** SCIM user creations and `userName eq` lookups through the gateway, next to bare Fastify in the same run. */
async function main() {
  const system = await System.start({ env: { SESAME_LOG_LEVEL: 'warn' } });
  try {
    const organization = await system.request('POST', '/api/v2/organizations', { body: { name: 'Bench Scim' } });
    const directory = await system.request('POST', `/api/v2/org/${organization.body.domain}/directory-sync`, { body: {} });
    if (directory.status !== 201) throw new Error(`setup failed: ${directory.status}`);
    const base = new URL(directory.body.scim_base_url).pathname;
    const headers = {
      authorization: `Bearer ${directory.body.auth_secret_token.value}`,
      'content-type': 'application/scim+json',
    };
    const user = (name: string) =>
      JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: name,
        emails: [{ value: name, primary: true }],
      });
    for (let i = 0; i < seeded; i++) {
      const answer = await system.request('POST', `${base}/Users`, {
        token: directory.body.auth_secret_token.value,
        body: user(`seed${i}@bench.example`),
      });
      if (answer.status !== 201) throw new Error(`seeding failed: ${answer.status}`);
    }
    const bare = await startBareFastify();
    const baseline = await load({ url: bare.url });
    await bare.stop();
    const run = randomUUID().slice(0, 8);
    const create = await load({
      url: `${system.baseUrl}${base}/Users`,
      method: 'POST',
      headers,
      bodyFor: (i) => user(`http${i}.${run}@bench.example`),
    });
    const lookup = await load({
      url: `${system.baseUrl}${base}/Users`,
      headers,
      pathFor: (i) => `${base}/Users?filter=${encodeURIComponent(`userName eq "seed${i % seeded}@bench.example"`)}`,
    });
    for (const [name, result] of Object.entries({ create, lookup }))
      if (result.errors + result.non2xx > 0) console.warn(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    const fastify = (label: string, value: number, unit: string) => ({ name: `bare Fastify hello-world ${label}`, value, unit });
    report(
      'scim',
      [
        {
          name: 'SCIM POST /Users req/s',
          value: create.requestsPerSecond,
          unit: 'req/s',
          baseline: fastify('req/s', baseline.requestsPerSecond, 'req/s'),
        },
        { name: 'SCIM POST /Users p99', value: create.p99Ms, unit: 'ms', baseline: fastify('p99', baseline.p99Ms, 'ms') },
        {
          name: 'SCIM userName eq lookup req/s',
          value: lookup.requestsPerSecond,
          unit: 'req/s',
          baseline: fastify('req/s', baseline.requestsPerSecond, 'req/s'),
        },
        { name: 'SCIM userName eq lookup p99', value: lookup.p99Ms, unit: 'ms', baseline: fastify('p99', baseline.p99Ms, 'ms') },
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
