import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { System, repoRoot } from '../support/system';
import { Replicas } from '../support/replicas';

/**
 * Read-your-writes across replicas, measured: a client writes through one gateway and reads what it
 * wrote through the other at once (an organization, then a user of it), on two replicas of every
 * service. A read lands on either replica of the service (a NATS queue group), whose read model
 * follows the event store on its own: it may not hold the write yet. Counts the reads that missed
 * their write (404) and how long until each write was visible; every write must become visible
 * within 5 s. No fix yet: the figures go to bench/results/read-your-writes.json.
 */
const pairs = Number(process.env.SESAME_READ_YOUR_WRITES_PAIRS ?? 150);
const visibleWithinMs = 5_000;

describe('Read-your-writes across two gateways and two replicas of every service', () => {
  it('measures how often a read through the other gateway misses the write just acknowledged', async () => {
    const system = await System.start();
    let replicas: Replicas | undefined;
    try {
      replicas = await Replicas.start(system, ['identity', 'auth-methods', 'directory-sync', 'webhooks', 'gateway']);
      const [first, second] = replicas.gatewayUrls as [string, string];
      const token = await system.token();
      const organizations = new Misses();
      const users = new Misses();
      for (let pair = 0; pair < pairs; pair++) {
        const [writer, reader] = pair % 2 ? [first, second] : [second, first];
        const organization = await post(writer, '/api/v2/organizations', { name: `Ryw ${pair} Org` }, token);
        await organizations.read(reader, `/api/v2/organizations/${organization.domain}`, token);
        const user = await post(writer, `/api/v2/org/${organization.domain}/users`, { email: `ryw${pair}@example.com` }, token);
        await users.read(reader, `/api/v2/org/${organization.domain}/users/${user.id}`, token);
      }
      const figures = { pairs, organizations: organizations.summary(), users: users.summary() };
      console.log(`read-your-writes ${JSON.stringify(figures)}`);
      const file = join(repoRoot, 'bench', 'results', 'read-your-writes.json');
      writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), ...figures }, null, 2)}\n`);
      expect(Math.max(organizations.slowestMs, users.slowestMs)).toBeLessThan(visibleWithinMs);
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

async function post(gateway: string, path: string, body: unknown, token: string): Promise<{ id: string; domain?: string }> {
  const response = await fetch(`${gateway}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; domain?: string };
}
