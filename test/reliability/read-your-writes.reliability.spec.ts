import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { System, repoRoot } from '../support/system';
import { Replicas } from '../support/replicas';

/**
 * Read-your-writes across replicas: a client writes through one gateway and reads what it wrote
 * through the other at once, on two replicas of every service. A read lands on either replica of
 * the service (a NATS queue group), whose read model follows the event store on its own: it may
 * not hold the write yet. Measured without the write's consistency token: reads of a new
 * organization or user that missed it (404; identity then reads the aggregate's stream), and
 * reads of an organization just renamed that answered the old name (stale). With the token
 * (`Sesame-Consistency-Token` sent back), the reading replica waits for its read models to reach
 * the write: no renamed organization read stale and no new user missing from the list, asserted.
 * The figures go to bench/results/read-your-writes.json.
 */
const pairs = Number(process.env.SESAME_READ_YOUR_WRITES_PAIRS ?? 150);
const visibleWithinMs = 5_000;

describe('Read-your-writes across two gateways and two replicas of every service', () => {
  it('measures reads through the other gateway that miss or see stale writes, and sees every write read with its consistency token', async () => {
    const system = await System.start();
    let replicas: Replicas | undefined;
    try {
      replicas = await Replicas.start(system, ['identity', 'auth-methods', 'directory-sync', 'webhooks', 'gateway']);
      const [first, second] = replicas.gatewayUrls as [string, string];
      const token = await system.token();
      const organizations = new Misses();
      const users = new Misses();
      const renamed = { reads: 0, stale: 0 };
      const renamedWithToken = { reads: 0, stale: 0 };
      const listedWithToken = { reads: 0, missing: 0 };
      for (let pair = 0; pair < pairs; pair++) {
        const [writer, reader] = pair % 2 ? [first, second] : [second, first];
        const organization = await post(writer, '/api/v2/organizations', { name: `Ryw ${pair} Org` }, token);
        const path = `/api/v2/organizations/${organization.domain}`;
        await organizations.read(reader, path, token);
        const user = await post(writer, `/api/v2/org/${organization.domain}/users`, { email: `ryw${pair}@example.com` }, token);
        await users.read(reader, `/api/v2/org/${organization.domain}/users/${user.id}`, token);

        await put(writer, path, { name: `Ryw ${pair} Renamed` }, token);
        renamed.reads++;
        if ((await get(reader, path, token)).name !== `Ryw ${pair} Renamed`) renamed.stale++;
        const renamedAgain = await put(writer, path, { name: `Ryw ${pair} Again` }, token);
        renamedWithToken.reads++;
        if ((await get(reader, path, token, renamedAgain.consistencyToken)).name !== `Ryw ${pair} Again`)
          renamedWithToken.stale++;

        const another = await post(
          writer,
          `/api/v2/org/${organization.domain}/users`,
          { email: `ryw${pair}b@example.com` },
          token,
        );
        const listed = await get(reader, `/api/v2/org/${organization.domain}/users`, token, another.consistencyToken);
        listedWithToken.reads++;
        if (!(listed.data as { id: string }[]).some((listedUser) => listedUser.id === another.id)) listedWithToken.missing++;
      }
      const figures = {
        pairs,
        organizations: organizations.summary(),
        users: users.summary(),
        renamed,
        withConsistencyToken: { renamed: renamedWithToken, usersListed: listedWithToken },
      };
      console.log(`read-your-writes ${JSON.stringify(figures)}`);
      const file = join(repoRoot, 'bench', 'results', 'read-your-writes.json');
      writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), ...figures }, null, 2)}\n`);
      expect(Math.max(organizations.slowestMs, users.slowestMs)).toBeLessThan(visibleWithinMs);
      expect(figures.withConsistencyToken).toEqual({
        renamed: { reads: pairs, stale: 0 },
        usersListed: { reads: pairs, missing: 0 },
      });
    } finally {
      await replicas?.stop();
      await system.stop();
    }
  }, 600_000);
});

/** Reads right after their write: how many missed it (404 first), and how long until each saw it. */
class Misses {
  private readonly waits: number[] = [];
  /** How long each read that missed its write waited to see it. */
  private readonly missedWaits: number[] = [];

  get slowestMs(): number {
    return Math.max(0, ...this.waits);
  }

  async read(gateway: string, path: string, token: string): Promise<void> {
    const started = Date.now();
    let missed = false;
    for (;;) {
      const response = await fetch(`${gateway}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      if (response.status === 200) break;
      if (response.status !== 404) throw new Error(`GET ${path}: ${response.status}`);
      missed = true;
      if (Date.now() - started > visibleWithinMs) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    this.waits.push(Date.now() - started);
    if (missed) this.missedWaits.push(Date.now() - started);
  }

  summary(): Record<string, number> {
    const missedWaits = [...this.missedWaits].sort((a, b) => a - b);
    return {
      reads: this.waits.length,
      missed: missedWaits.length,
      missedPercent: Math.round((1_000 * missedWaits.length) / Math.max(1, this.waits.length)) / 10,
      visibleAfterMissMedianMs: missedWaits[Math.floor(missedWaits.length / 2)] ?? 0,
      slowestMs: this.slowestMs,
    };
  }
}

interface Written {
  id: string;
  domain?: string;
  /** The write's `Sesame-Consistency-Token`. */
  consistencyToken: string;
}

const post = (gateway: string, path: string, body: unknown, token: string) => write('POST', 201, gateway, path, body, token);
const put = (gateway: string, path: string, body: unknown, token: string) => write('PUT', 200, gateway, path, body, token);

async function write(
  method: string,
  status: number,
  gateway: string,
  path: string,
  body: unknown,
  token: string,
): Promise<Written> {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== status) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  const consistencyToken = response.headers.get('sesame-consistency-token');
  if (!consistencyToken) throw new Error(`${method} ${path} answered no Sesame-Consistency-Token`);
  return { ...((await response.json()) as { id: string; domain?: string }), consistencyToken };
}

/** One read, with the consistency token of a write when given. */
async function get(gateway: string, path: string, token: string, consistencyToken?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (consistencyToken) headers['sesame-consistency-token'] = consistencyToken;
  const response = await fetch(`${gateway}${path}`, { headers });
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}
