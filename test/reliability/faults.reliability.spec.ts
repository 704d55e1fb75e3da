import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { processEntries, System } from '../support/system';
import type { ProcessName } from '../support/system';
import { WriteLoad } from '../support/write-load';
import type { Written } from '../support/write-load';
import { auditWrites, stateText, visibleState } from '../support/visible-state';
import type { VisibleState } from '../support/visible-state';
import { eventually } from '../support/identity-fixtures';
import { FollowedWebhook, fastDeliveryEnv } from '../support/webhook-audit';
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

async function verify(
  system: System,
  load: WriteLoad,
  before: VisibleState,
  webhook: FollowedWebhook,
  recovery: Record<string, { restartMs: number; firstWriteMs: number }>,
): Promise<void> {
  let audit = auditWrites(load, await visibleState(system), before);
  // Writes acknowledged just before a fault are applied; reads may take a moment to catch up.
  await eventually(async () => {
    audit = auditWrites(load, await visibleState(system), before);
    return audit.lost.length === 0;
  }, 30_000).catch(() => undefined);
  const settleStarted = Date.now();
  const deliveries = webhook.audit(load.acknowledged, await webhook.settle(system, load.acknowledged));
  const settledMs = Date.now() - settleStarted;
  console.log(
    `reliability ${JSON.stringify({
      ...load.summary(),
      lost: audit.lost.length,
      duplicated: audit.duplicated.length,
      phantom: audit.phantom.length,
      unknownOutcomeApplied: audit.unknownApplied,
      webhookEvents: deliveries.jobs,
      webhookEventStates: deliveries.states,
      deliveries: deliveries.deliveries,
      refusedFirstAttempts: deliveries.refusedFirstAttempts,
      duplicateDeliveries: deliveries.duplicateDeliveries,
      undelivered: deliveries.undelivered.length,
      settledMs,
      recovery,
    })}`,
  );
  expect(load.acknowledged.length).toBeGreaterThan(0);
  expect(audit.lost).toEqual([]);
  expect(audit.duplicated).toEqual([]);
  expect(audit.phantom).toEqual([]);
  expect(load.rejected).toEqual([]);
  for (const written of load.acknowledged)
    expect(await system.request('GET', readPath(written))).toMatchObject({ status: 200, body: { id: written.id } });
  expectEveryEventDelivered(deliveries);
  await expectRebuiltEqualLive(system, webhook);
}

/** Every job completed (none pending, none discarded), one job per event, one event per write, each delivered. */
function expectEveryEventDelivered(deliveries: ReturnType<FollowedWebhook['audit']>): void {
  expect(deliveries.jobs).toBeGreaterThan(0);
  expect(deliveries.refusedFirstAttempts).toBeGreaterThan(0);
  const { notCompleted, jobsForOneEvent, eventsForOneWrite, unpublished, undelivered, deliveriesOfUnknownEvents } = deliveries;
  expect({ notCompleted, jobsForOneEvent, eventsForOneWrite, unpublished, undelivered, deliveriesOfUnknownEvents }).toEqual({
    notCompleted: [],
    jobsForOneEvent: [],
    eventsForOneWrite: [],
    unpublished: [],
    undelivered: [],
    deliveriesOfUnknownEvents: [],
  });
}

/**
 * Read models in memory are rebuilt from position 0 of the event store at every start, and the
 * webhooks service reloads its jobs from their bucket: after a restart of every service, the
 * API shows exactly what it showed before.
 */
async function expectRebuiltEqualLive(system: System, webhook: FollowedWebhook): Promise<void> {
  const live = stateText(await visibleState(system));
  const liveJobs = JSON.stringify(await webhook.jobs(system));
  await system.restart(['identity', 'auth-methods', 'directory-sync', 'webhooks']);
  expect(stateText(await visibleState(system))).toBe(live);
  expect(JSON.stringify(await webhook.jobs(system))).toBe(liveJobs);
}

/** Where an acknowledged write reads back alone. */
function readPath(written: Written): string {
  const paths: Record<Written['kind'], string> = {
    organization: `/api/v2/organizations/${written.domain}`,
    user: `/api/v2/org/${written.domain}/users/${written.id}`,
    'redirect-uri': `/api/v2/redirect_uris/${written.id}`,
    relay: `/api/v2/relays/${written.id}`,
    webhook: `/api/v2/webhooks/${written.id}`,
  };
  return paths[written.kind];
}

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
