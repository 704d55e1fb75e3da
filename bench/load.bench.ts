import { randomUUID } from 'node:crypto';
import type { System } from '../test/support/system';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import {
  bareFastifyBaseline,
  rawArgon2idBaseline,
  rawPublishBaseline,
  rawRs256Baseline,
  rawSignedPostBaseline,
} from './lib/baselines';
import { load, timedOf } from './lib/load';
import type { LoadOptions, LoadResult } from './lib/load';
import { figuresAgainst, percentile, report } from './lib/report';
import type { Figure } from './lib/report';
import { scimUser, seedScimDirectory, seedUsers } from './lib/seed';
import type { Timed } from './lib/timing';
import { cpuBreakdown, cpuPerRequestFigure, withCpu } from './lib/cpu';
import type { CpuUsage } from './lib/cpu';
import { startBenchSystem } from './lib/system';

/**
 * A realistic mix through the gateway for a bounded time: every operation runs at once, each on
 * its own autocannon connections, so each figure is measured under the others' load; meanwhile a
 * webhook subscribed to the mix's events has them delivered to a local receiver. Next to them,
 * raw baselines measured in the same run on the same machine: bare Fastify (reads), a raw
 * JetStream publish (writes, SCIM pushes), a raw RS256 signature (token grants), a raw argon2id
 * hash at the service's parameters (password challenges), a raw signed POST to the same receiver
 * (webhook deliveries).
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const passphrase = 'correct horse battery staple 42';
/** Every event the mix causes. */
const mixEventCodes = [
  'organization.created',
  'user.created',
  'user.updated',
  'password.challenge.succeeded',
  'directory_sync.user.provisioning.success',
  'directory_sync.user.update.success',
];
const scimPatch = (i: number) =>
  JSON.stringify({
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', path: 'name.givenName', value: `Given ${i}` }],
  });

type BaselineKind = 'http' | 'write' | 'sign' | 'argon2id';
type Baselines = Record<BaselineKind | 'delivery', Timed & { name: string; unit: string }>;

async function baselines(system: System, receiver: WebhookReceiver): Promise<Baselines> {
  const bound = { seconds };
  return {
    http: { name: 'bare Fastify hello-world', unit: 'req/s', ...timedOf(await bareFastifyBaseline(seconds)) },
    write: {
      name: 'raw JetStream publish',
      unit: 'msgs/s',
      ...(await rawPublishBaseline(system.natsOptions(), bound, 16)),
    },
    sign: { name: 'raw RS256 sign', unit: 'signs/s', ...(await rawRs256Baseline(bound)) },
    argon2id: { name: 'raw argon2id hash (19 MiB, t=2)', unit: 'hashes/s', ...(await rawArgon2idBaseline(bound, 2, passphrase)) },
    delivery: {
      name: 'raw signed POST to the same receiver',
      unit: 'posts/s',
      ...(await rawSignedPostBaseline(`${receiver.url}/raw`, bound, 8)),
    },
  };
}

/** An organization with users (one with a password), a SCIM directory with users, a webhook on the mix's events. */
async function seed(system: System, receiver: WebhookReceiver) {
  const domain = `load-${randomUUID().slice(0, 8)}`;
  const emailDomain = `${domain}.example.com`;
  const organization = await system.request('POST', '/api/v2/organizations', {
    body: { name: `Load ${domain}`, allowed_email_domains: [emailDomain] },
  });
  if (organization.status !== 201)
    throw new Error(`seed organization: ${organization.status} ${JSON.stringify(organization.body)}`);
  const org = organization.body.domain as string;
  const users = await seedUsers(system, org, 200, (i) => `seed${i}@${emailDomain}`);
  const password = await system.request('POST', '/api/v2/password', {
    body: { org_domain: org, user_email: `seed0@${emailDomain}`, plain_text: passphrase },
  });
  if (password.status >= 300) throw new Error(`seed password: ${password.status} ${JSON.stringify(password.body)}`);
  const scim = await seedScimDirectory(system, org, 50, (i) => `scim${i}@${emailDomain}`);
  const webhook = await system.request('POST', '/api/v2/webhooks', {
    body: { name: 'Load mix', event_codes: mixEventCodes, target_url: `${receiver.url}/mix` },
  });
  if (webhook.status !== 201) throw new Error(`seed webhook: ${webhook.status} ${JSON.stringify(webhook.body)}`);
  return { org, emailDomain, users: users.map((user) => user.id), scim };
}

type Mix = Record<string, LoadOptions & { baseline: BaselineKind }>;

/** The mix's requests; each call makes new unique values (emails, names), so a phase never repeats another's writes. */
async function mixOf(system: System, seeded: Awaited<ReturnType<typeof seed>>): Promise<Mix> {
  const { org, emailDomain, users, scim } = seeded;
  const json = { authorization: `Bearer ${await system.token()}`, 'content-type': 'application/json' };
  const scimHeaders = { authorization: `Bearer ${scim.token}`, 'content-type': 'application/scim+json' };
  const run = randomUUID().slice(0, 8);
  const base = system.baseUrl;
  return {
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
    'SCIM POST /Users': {
      url: `${base}${scim.path}/Users`,
      method: 'POST',
      headers: scimHeaders,
      connections: 1,
      baseline: 'write',
      bodyFor: (i) => scimUser(`scimload${i}.${run}@${emailDomain}`),
    },
    'SCIM PATCH /Users/{id}': {
      url: base,
      method: 'PATCH',
      headers: scimHeaders,
      connections: 1,
      baseline: 'write',
      pathFor: (i) => `${scim.path}/Users/${scim.users[i % scim.users.length]}`,
      bodyFor: scimPatch,
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
    'POST /api/v2/password-challenge': {
      url: `${base}/api/v2/password-challenge`,
      method: 'POST',
      headers: json,
      connections: 1,
      baseline: 'argon2id',
      body: JSON.stringify({ org_domain: org, user_email: `seed0@${emailDomain}`, plain_text: passphrase }),
    },
  };
}

/** Deliveries the receiver got while the mix ran, and the delay from each event to its delivery. */
function deliveryFigures(receiver: WebhookReceiver, from: number, to: number, baseline: Baselines['delivery']): Figure[] {
  const during = receiver.to('/mix').filter((delivery) => delivery.receivedAt >= from && delivery.receivedAt <= to);
  const delays = during
    .map((delivery) => delivery.receivedAt - Date.parse((JSON.parse(delivery.body) as { issued_at: string }).issued_at))
    .sort((a, b) => a - b);
  const measured = {
    perSecond: (during.length * 1_000) / (to - from),
    p50: percentile(delays, 50),
    p99: percentile(delays, 99),
    unit: 'deliveries/s',
  };
  return figuresAgainst('webhook deliveries (event to delivery)', measured, baseline);
}

/**
 * What the mix costs in CPU: every Sesame process's and nats-server's CPU seconds over the requests
 * served, next to what the same requests would cost at each operation's CPU per request alone.
 * Their ratio is the mix's overhead (the target: at most 1.5).
 */
function mixCpuFigures(
  names: string[],
  alone: Record<string, { result: LoadResult; cpu: CpuUsage }>,
  results: LoadResult[],
  cpu: CpuUsage,
  elapsedSeconds: number,
): Figure[] {
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const aloneFigures = names.map((name) => cpuPerRequestFigure(`${name} alone`, alone[name]!.cpu, alone[name]!.result.requests));
  const expectedMs = names.reduce((sum, name, index) => sum + aloneFigures[index]!.value * (results[index]?.requests ?? 0), 0);
  const mixMs = cpu.total * 1_000;
  return [
    ...aloneFigures,
    { name: 'whole mix req/s', value: requests / elapsedSeconds, unit: 'req/s' },
    {
      ...cpuPerRequestFigure('whole mix', cpu, requests),
      baseline: { name: 'the same requests at their CPU alone', value: requests > 0 ? expectedMs / requests : 0, unit: 'ms' },
    },
    { name: 'mix CPU over CPU alone', value: expectedMs > 0 ? mixMs / expectedMs : 0, unit: 'x' },
  ];
}

/**
 * A figure of failing requests measures the error path: more than 1 % of answers outside 2xx (or
 * connection errors) stops the run. (The mix once repeated the alone runs' emails and names and
 * measured 422s.)
 */
function refuseFailures(name: string, result: LoadResult): void {
  const failed = result.errors + result.non2xx;
  if (failed > Math.max(1, result.requests / 100))
    throw new Error(
      `${name}: ${failed} of ${result.requests} requests failed (${result.non2xx} non-2xx, ${result.errors} errors)`,
    );
}

async function main() {
  const receiver = await WebhookReceiver.start();
  const system = await startBenchSystem();
  try {
    const raw = await baselines(system, receiver);
    const seeded = await seed(system, receiver);
    const single = await mixOf(system, seeded);
    const names = Object.keys(single);
    // Each operation alone first (same connections, a shorter run): its CPU per request is the yardstick of the mix.
    const alone: Record<string, { result: LoadResult; cpu: CpuUsage }> = {};
    for (const name of names) {
      alone[name] = await withCpu(system.processIds.bind(system), () =>
        load({ ...(single[name] as LoadOptions), durationSeconds: Math.max(3, Math.round(seconds / 3)) }),
      );
      refuseFailures(`${name} alone`, alone[name].result);
    }
    const mix = await mixOf(system, seeded);
    const from = Date.now();
    const { result: results, cpu } = await withCpu(system.processIds.bind(system), () =>
      Promise.all(names.map((name) => load({ ...(mix[name] as LoadOptions), durationSeconds: seconds }))),
    );
    const to = Date.now();
    const figures: Figure[] = [];
    const notes: Record<string, unknown> = {
      seconds,
      connections: Object.fromEntries(names.map((name) => [name, mix[name]?.connections])),
      webhook_codes: mixEventCodes,
    };
    // Each operation alone, next to its raw baseline (the targets compare grants and challenges alone with raw signing and hashing).
    for (const name of names)
      figures.push(
        ...figuresAgainst(
          `${name} alone`,
          { ...timedOf(alone[name]!.result), unit: 'req/s' },
          raw[(single[name] as Mix[string]).baseline],
        ),
      );
    names.forEach((name, index) => {
      const result = results[index] as LoadResult;
      refuseFailures(`${name} in the mix`, result);
      if (result.errors + result.non2xx > 0) notes[`${name} failures`] = { errors: result.errors, non2xx: result.non2xx };
      const kind = mix[name]?.baseline ?? 'http';
      figures.push(...figuresAgainst(name, { ...timedOf(result), unit: 'req/s' }, raw[kind]));
    });
    figures.push(...deliveryFigures(receiver, from, to, raw.delivery));
    figures.push(...mixCpuFigures(names, alone, results, cpu, (to - from) / 1_000));
    notes.cpu_ms_per_request_by_process_in_mix = cpuBreakdown(
      cpu,
      results.reduce((sum, result) => sum + result.requests, 0),
    );
    report('load', figures, notes);
  } finally {
    await system.stop();
    await receiver.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
