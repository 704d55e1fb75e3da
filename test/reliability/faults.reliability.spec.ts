import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { processEntries, repoRoot, System } from '../support/system';
import type { ProcessName } from '../support/system';
import { PrivateNats } from '../support/private-nats';
import { WriteLoad } from '../support/write-load';
import { auditWrites, stateText, visibleState } from '../support/visible-state';
import type { VisibleState } from '../support/visible-state';
import { eventually } from '../support/identity-fixtures';

/**
 * Faults under a steady write load (organizations, and users in them): kill -9 of every process in
 * turn, then a restart of NATS itself (a private server: the machine's shared one is never
 * touched). Afterwards every acknowledged write is readable, nothing is listed twice or appears
 * unasked, read models rebuilt from zero equal the live ones, and the system answers again.
 *
 * Bounded: `SESAME_RELIABILITY_SECONDS` seconds of load between faults (default 3).
 */
const phaseMs = Number(process.env.SESAME_RELIABILITY_SECONDS ?? 3) * 1_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Faults under a steady write load (all processes, real NATS)', () => {
  it('survives kill -9 of each service and the gateway in turn', async () => {
    const system = await System.start();
    try {
      const before = await visibleState(system);
      const load = new WriteLoad(system, await system.token(), 'Kill');
      load.start();
      await load.acknowledgedSince(Date.now());
      const recovery: Record<string, { restartMs: number; firstWriteMs: number }> = {};
      for (const name of Object.keys(processEntries) as ProcessName[]) {
        await sleep(phaseMs);
        const killedAt = Date.now();
        await system.restart([name], 'SIGKILL');
        const restartedAt = Date.now();
        const firstWriteMs = restartedAt - killedAt + (await load.acknowledgedSince(restartedAt));
        recovery[name] = { restartMs: restartedAt - killedAt, firstWriteMs };
      }
      await sleep(phaseMs);
      await load.stop();
      await verify(system, load, before, recovery);
    } finally {
      await system.stop();
    }
  });

  it('survives a restart of NATS (kill -9 of a private nats-server, same store) during the load', async () => {
    const logDir = join(repoRoot, 'test-results', 'reliability');
    mkdirSync(logDir, { recursive: true });
    const nats = await PrivateNats.start(logDir);
    let system: System | undefined;
    try {
      system = await System.start({ env: { SESAME_NATS_URL: nats.url } });
      const before = await visibleState(system);
      const load = new WriteLoad(system, await system.token(), 'Nats');
      load.start();
      await load.acknowledgedSince(Date.now());
      await sleep(phaseMs);
      const killedAt = Date.now();
      await nats.kill('SIGKILL');
      await sleep(1_000);
      await nats.run();
      await system.waitUntilReady(120_000);
      const restartedAt = Date.now();
      const firstWriteMs = restartedAt - killedAt + (await load.acknowledgedSince(restartedAt));
      await sleep(phaseMs);
      await load.stop();
      await verify(system, load, before, { nats: { restartMs: restartedAt - killedAt, firstWriteMs } });
    } finally {
      await system?.stop();
      await nats.stop();
    }
  });
});

async function verify(
  system: System,
  load: WriteLoad,
  before: VisibleState,
  recovery: Record<string, { restartMs: number; firstWriteMs: number }>,
): Promise<void> {
  let audit = auditWrites(load, await visibleState(system), before);
  // Writes acknowledged just before a fault are applied; reads may take a moment to catch up.
  await eventually(async () => {
    audit = auditWrites(load, await visibleState(system), before);
    return audit.lost.length === 0;
  }, 30_000).catch(() => undefined);
  console.log(
    `reliability ${JSON.stringify({
      ...load.summary(),
      lost: audit.lost.length,
      duplicated: audit.duplicated.length,
      phantom: audit.phantom.length,
      unknownOutcomeApplied: audit.unknownApplied,
      recovery,
    })}`,
  );
  expect(load.acknowledged.length).toBeGreaterThan(0);
  expect(audit.lost).toEqual([]);
  expect(audit.duplicated).toEqual([]);
  expect(audit.phantom).toEqual([]);
  expect(load.rejected).toEqual([]);
  for (const written of load.acknowledged) {
    const path =
      written.kind === 'organization'
        ? `/api/v2/organizations/${written.domain}`
        : `/api/v2/org/${written.domain}/users/${written.id}`;
    expect(await system.request('GET', path)).toMatchObject({ status: 200, body: { id: written.id } });
  }
  // Read models in memory are rebuilt from position 0 of the event store at every start.
  const live = stateText(await visibleState(system));
  await system.restart(['identity']);
  expect(stateText(await visibleState(system))).toBe(live);
}
