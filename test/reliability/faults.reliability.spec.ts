import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processEntries, System } from '../support/system';
import type { ProcessName } from '../support/system';
import { WriteLoad } from '../support/write-load';
import { visibleState } from '../support/visible-state';
import { FollowedWebhook, fastDeliveryEnv } from '../support/webhook-audit';
import { verify } from '../support/reliability-checks';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Faults under a steady write load (organizations, users, redirect URIs, relays, webhooks): kill -9
 * of every process in turn, then a restart of NATS itself (the system's private server: the
 * machine's shared one is never touched). Afterwards every acknowledged write is readable, nothing is listed twice
 * or appears unasked, every webhook event reaches a final state and was delivered at least once
 * to a real receiver (which refuses some first attempts), read models rebuilt from zero equal the
 * live ones, and the system answers again.
 *
 * Bounded: `SESAME_RELIABILITY_SECONDS` seconds of load between faults (default 3).
 */
const phaseMs = Number(process.env.SESAME_RELIABILITY_SECONDS ?? 3) * 1_000;
/** Each test: the system's start, the load through its faults, then the checks and a restart of every service. */
const testTimeoutMs = 600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const processEnv = { webhooks: fastDeliveryEnv };

describe('Faults under a steady write load (all processes, real NATS)', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await receiver.stop();
  });

  it(
    'survives kill -9 of each service and the gateway in turn',
    async () => {
      const system = await System.start({ processEnv });
      try {
        const webhook = await FollowedWebhook.create(system, receiver);
        const before = await visibleState(system);
        const load = new WriteLoad(system, await system.token(), 'Kill', receiver.url);
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
        await verify(system, load, before, webhook, recovery);
        // A restarted service took requests only once its read models held what was stored before
        // (answering from a half-built one called acknowledged organizations unknown).
        for (const name of Object.keys(processEntries).filter((process) => process !== 'gateway'))
          expect([name, startsBeforeCatchingUp(readFileSync(join(system.logDir, `${name}.log`), 'utf8'))]).toEqual([name, []]);
      } finally {
        await system.stop();
      }
    },
    testTimeoutMs,
  );

  it(
    'survives a restart of NATS (kill -9 of a private nats-server, same store) during the load',
    async () => {
      const system = await System.start({ processEnv });
      try {
        const webhook = await FollowedWebhook.create(system, receiver);
        const before = await visibleState(system);
        const load = new WriteLoad(system, await system.token(), 'Nats', receiver.url);
        load.start();
        await load.acknowledgedSince(Date.now());
        await sleep(phaseMs);
        const killedAt = Date.now();
        await system.nats.kill('SIGKILL');
        await sleep(1_000);
        await system.nats.run();
        await system.waitUntilReady(120_000);
        const restartedAt = Date.now();
        const firstWriteMs = restartedAt - killedAt + (await load.acknowledgedSince(restartedAt));
        await sleep(phaseMs);
        await load.stop();
        await verify(system, load, before, webhook, { nats: { restartMs: restartedAt - killedAt, firstWriteMs } });
      } finally {
        await system.stop();
      }
    },
    testTimeoutMs,
  );
});

/** The starts of a service's log ("<service> started") that came before its projections caught up. */
function startsBeforeCatchingUp(log: string): string[] {
  const messages = log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; time: string });
  const early: string[] = [];
  let caughtUp = true;
  for (const { msg, time } of messages) {
    if (msg === 'projections catching up') caughtUp = false;
    else if (msg === 'projections caught up') caughtUp = true;
    else if (msg.endsWith(' started') && !caughtUp) early.push(time);
  }
  return early;
}
