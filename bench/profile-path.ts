import { randomUUID } from 'node:crypto';
import { load } from './lib/load';
import type { LoadOptions } from './lib/load';
import { scimUser, seedScimDirectory } from './lib/seed';
import { startBenchSystem } from './lib/system';
import { profileProcess } from './lib/profile';
import type { System } from '../test/support/system';

/**
 * Where the CPU of one API path goes, process by process: the path runs under load (16
 * connections) while each Sesame process in turn is CPU-profiled through its inspector for
 * `BENCH_PROFILE_SECONDS` (default 6). Prints each process's busiest functions (self time) and
 * Sesame's own functions by inclusive time; writes each `.cpuprofile` to bench/results/profiles/
 * (open in Chrome DevTools). Usage: npx tsx bench/profile-path.ts <path>, where path is one of
 * `post-organization`, `post-user`, `scim-post-user`, `get-user`, `password-challenge` (one connection, one
 * user: a user signing in again and again).
 */
const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 6);
const passphrase = 'correct horse battery staple 42';

async function pathOptions(system: System, path: string): Promise<LoadOptions> {
  const token = await system.token();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const run = randomUUID().slice(0, 8);
  const organization = await system.request('POST', '/api/v2/organizations', {
    body: { name: `Profile ${run}`, allowed_email_domains: ['profile.example'] },
  });
  if (organization.status !== 201) throw new Error(`setup failed: ${organization.status}`);
  const domain = organization.body.domain as string;
  const users = `${system.baseUrl}/api/v2/org/${domain}/users`;
  if (path === 'post-organization')
    return {
      url: `${system.baseUrl}/api/v2/organizations`,
      method: 'POST',
      headers,
      bodyFor: (i) => JSON.stringify({ name: `Profile ${run} ${i}` }),
    };
  if (path === 'post-user')
    return { url: users, method: 'POST', headers, bodyFor: (i) => JSON.stringify({ email: `u${i}.${run}@profile.example` }) };
  if (path === 'get-user') {
    const created = await system.request('POST', `/api/v2/org/${domain}/users`, {
      body: { email: `reader.${run}@profile.example` },
    });
    return { url: `${users}/${created.body.id as string}`, headers };
  }
  if (path === 'password-challenge') {
    const email = `signer.${run}@profile.example`;
    const created = await system.request('POST', `/api/v2/org/${domain}/users`, { body: { email } });
    const password = await system.request('POST', '/api/v2/password', {
      body: { org_domain: domain, user_email: email, plain_text: passphrase },
    });
    if (created.status !== 201 || password.status >= 300) throw new Error(`setup failed: ${password.status}`);
    return {
      url: `${system.baseUrl}/api/v2/password-challenge`,
      method: 'POST',
      headers,
      connections: 1,
      body: JSON.stringify({ org_domain: domain, user_email: email, plain_text: passphrase }),
    };
  }
  if (path === 'scim-post-user') {
    const directory = await seedScimDirectory(system, domain, 1, (i) => ({ userName: `seed${i}@profile.example` }), 1);
    return {
      url: `${system.baseUrl}${directory.path}/Users`,
      method: 'POST',
      headers: { authorization: `Bearer ${directory.token}`, 'content-type': 'application/scim+json' },
      bodyFor: (i) => scimUser(`s${i}.${run}@profile.example`),
    };
  }
  throw new Error(`unknown path ${path}: post-organization, post-user, scim-post-user, get-user, password-challenge`);
}

async function main() {
  const path = process.argv[2] ?? 'post-organization';
  const system = await startBenchSystem();
  try {
    const options = await pathOptions(system, path);
    const processes = Object.entries(system.processIds()).filter(([name]) => name !== 'nats-server');
    for (const [phase, [name, pid]] of processes.entries()) {
      // Each phase writes new names and emails (a repeated one would measure the 409 path).
      const bodyFor = options.bodyFor;
      const running = load({
        ...options,
        ...(bodyFor ? { bodyFor: (i: number) => bodyFor(phase * 1_000_000 + i) } : {}),
        durationSeconds: seconds + 2,
      });
      const summary = await profileProcess(pid, seconds, `${path}-${name}`);
      const result = await running;
      console.log(
        `\n## ${path}: ${name} (${Math.round(result.requestsPerSecond)} req/s meanwhile, ${summary.busyPercent}% busy)`,
      );
      console.log(summary.text);
    }
  } finally {
    await system.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
