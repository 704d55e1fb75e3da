import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import { SignJWT } from 'jose';
import { connect } from 'nats';
import { testPrefix } from '@sesame/platform/testing';
import { System } from '../test/support/system';
import { startBareFastify } from './lib/bare-fastify';
import { load } from './lib/load';
import type { LoadOptions, LoadResult } from './lib/load';
import { percentile, report } from './lib/report';
import type { Figure } from './lib/report';

/**
 * A realistic mix through the gateway for a bounded time: every operation runs at once, each on
 * its own autocannon connections, so each figure is measured under the others' load. Next to
 * them, raw baselines measured in the same run on the same machine: bare Fastify (HTTP), a raw
 * JetStream publish (writes), a raw RS256 signature (token grants), a raw argon2id hash at the
 * OWASP parameters (password challenges).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const passphrase = 'correct horse battery staple 42';

interface Timed {
  perSecond: number;
  p50: number;
  p99: number;
}

/** Runs `task` with `concurrency` in flight for `seconds`: operations per second and latency percentiles. */
async function timedFor(concurrency: number, task: (i: number) => Promise<unknown>): Promise<Timed> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const until = started + seconds * 1_000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const begin = performance.now();
        await task(next++);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (latencies.length * 1_000) / (performance.now() - started),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function baselines(system: System) {
  const bare = await startBareFastify();
  const fastify = await load({ url: bare.url, durationSeconds: seconds });
  await bare.stop();

  const nc = await connect({ servers: system.env.SESAME_NATS_URL });
  const prefix = testPrefix('bl');
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: `${prefix}_RAW`.toUpperCase(), subjects: [`${prefix}.raw.>`] });
  const js = nc.jetstream();
  const payload = Buffer.from(JSON.stringify({ v: 1, events: [{ type: 'Raw', data: { email: 'x@bench.example' } }] }));
  const publish = await timedFor(16, (i) => js.publish(`${prefix}.raw.r${i}`, payload));
  await jsm.streams.delete(`${prefix}_RAW`.toUpperCase());
  await nc.close();

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sign = await timedFor(1, () =>
    new SignJWT({ scp: ['organizations:read'] })
      .setProtectedHeader({ alg: 'RS256', kid: 'k' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey),
  );
  const argon2id = await timedFor(2, () => hash(passphrase, { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 }));
  return { fastify, publish, sign, argon2id };
}

/** An organization with users (one with a password) for the reads and the challenges. */
async function seed(system: System) {
  const domain = `load-${randomUUID().slice(0, 8)}`;
  const emailDomain = `${domain}.example.com`;
  const organization = await system.request('POST', '/api/v2/organizations', {
    body: { name: `Load ${domain}`, allowed_email_domains: [emailDomain] },
  });
  if (organization.status !== 201)
    throw new Error(`seed organization: ${organization.status} ${JSON.stringify(organization.body)}`);
  const org = organization.body.domain as string;
  const users: string[] = [];
  for (let i = 0; i < 200; i++) {
    const user = await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: `seed${i}@${emailDomain}` } });
    if (user.status !== 201) throw new Error(`seed user: ${user.status} ${JSON.stringify(user.body)}`);
    users.push(user.body.id as string);
  }
  const password = await system.request('POST', '/api/v2/password', {
    body: { org_domain: org, user_email: `seed0@${emailDomain}`, plain_text: passphrase },
  });
  const passwords = password.status < 300;
  if (!passwords)
    console.warn(
      `password challenges left out: POST /api/v2/password answered ${password.status} ${JSON.stringify(password.body)}`,
    );
  return { org, emailDomain, users, passwords };
}

async function main() {
  const system = await System.start({ env: { SESAME_LOG_LEVEL: 'warn' } });
  try {
    const raw = await baselines(system);
    const { org, emailDomain, users, passwords } = await seed(system);
    const token = await system.token();
    const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const run = randomUUID().slice(0, 8);
    const base = system.baseUrl;
    const mix: Record<string, LoadOptions & { baseline: 'http' | 'write' | 'sign' | 'argon2id' }> = {
      'GET user by id': {
        url: base,
        headers: json,
        connections: 4,
        baseline: 'http',
        pathFor: (i) => `/api/v2/org/${org}/users/${users[i % users.length]}`,
      },
      'GET organizations (page of 10)': {
        url: `${base}/api/v2/organizations?per_page=10`,
        headers: json,
        connections: 2,
        baseline: 'http',
      },
      'POST user': {
        url: `${base}/api/v2/org/${org}/users`,
        method: 'POST',
        headers: json,
        connections: 2,
        baseline: 'write',
        bodyFor: (i) => JSON.stringify({ email: `load${i}.${run}@${emailDomain}` }),
      },
      'POST organization': {
        url: `${base}/api/v2/organizations`,
        method: 'POST',
        headers: json,
        connections: 1,
        baseline: 'write',
        bodyFor: (i) => JSON.stringify({ name: `Load ${run} ${i}` }),
      },
      'POST /oauth/token (client_credentials)': {
        url: `${base}/oauth/token`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        connections: 1,
        baseline: 'sign',
        body: JSON.stringify({
          grant_type: 'client_credentials',
          client_id: system.apiKey.clientId,
          client_secret: system.apiKey.clientSecret,
        }),
      },
    };
    if (passwords)
      mix['POST /api/v2/password-challenge'] = {
        url: `${base}/api/v2/password-challenge`,
        method: 'POST',
        headers: json,
        connections: 1,
        baseline: 'argon2id',
        body: JSON.stringify({ org_domain: org, user_email: `seed0@${emailDomain}`, plain_text: passphrase }),
      };
    const names = Object.keys(mix);
    const results = await Promise.all(names.map((name) => load({ ...(mix[name] as LoadOptions), durationSeconds: seconds })));
    const figures: Figure[] = [];
    const notes: Record<string, unknown> = {
      seconds,
      connections: Object.fromEntries(names.map((name) => [name, mix[name]?.connections])),
    };
    names.forEach((name, index) => {
      const result = results[index] as LoadResult;
      if (result.errors + result.non2xx > 0) notes[`${name} failures`] = { errors: result.errors, non2xx: result.non2xx };
      figures.push(...operationFigures(name, result, mix[name]?.baseline ?? 'http', raw));
    });
    report('load', figures, notes);
  } finally {
    await system.stop();
  }
}

function operationFigures(
  name: string,
  result: LoadResult,
  kind: 'http' | 'write' | 'sign' | 'argon2id',
  raw: Awaited<ReturnType<typeof baselines>>,
): Figure[] {
  const baseline: Record<typeof kind, [string, number, number, number, string]> = {
    http: ['bare Fastify hello-world', raw.fastify.requestsPerSecond, raw.fastify.p50Ms, raw.fastify.p99Ms, 'req/s'],
    write: ['raw JetStream publish', raw.publish.perSecond, raw.publish.p50, raw.publish.p99, 'msgs/s'],
    sign: ['raw RS256 sign', raw.sign.perSecond, raw.sign.p50, raw.sign.p99, 'signs/s'],
    argon2id: ['raw argon2id hash (19 MiB, t=2)', raw.argon2id.perSecond, raw.argon2id.p50, raw.argon2id.p99, 'hashes/s'],
  };
  const [label, perSecond, p50, p99, unit] = baseline[kind];
  return [
    { name: `${name} req/s`, value: result.requestsPerSecond, unit: 'req/s', baseline: { name: label, value: perSecond, unit } },
    { name: `${name} p50`, value: result.p50Ms, unit: 'ms', baseline: { name: `${label} p50`, value: p50, unit: 'ms' } },
    { name: `${name} p99`, value: result.p99Ms, unit: 'ms', baseline: { name: `${label} p99`, value: p99, unit: 'ms' } },
  ];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
