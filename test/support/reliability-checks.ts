import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProcessName, System } from './system';
import type { WriteLoad, Written } from './write-load';
import { auditWrites, stateText, visibleState } from './visible-state';
import type { VisibleState } from './visible-state';
import { eventually } from './identity-fixtures';
import type { FollowedWebhook } from './webhook-audit';
import { waitUntilFeedsCaughtUp, waitUntilProjectionsCaughtUp } from './event-feeds';
import { duplicateJobEvidence } from './job-evidence';

/**
 * The checks after a reliability scenario's faults: every acknowledged write readable (through each of `gateways`), nothing
 * listed twice or unasked, every webhook event delivered, read models rebuilt from zero equal to
 * the live ones. Prints the figures (acknowledged, lost, duplicated, recovery times) and answers them.
 */
export async function verify(
  system: System,
  load: WriteLoad,
  before: VisibleState,
  webhook: FollowedWebhook,
  recovery: Record<string, Record<string, number>>,
  gateways: string[] = [system.baseUrl],
): Promise<Record<string, unknown>> {
  let audit = auditWrites(load, await visibleState(system), before);
  // Writes acknowledged just before a fault are applied; reads may take a moment to catch up.
  await eventually(async () => {
    audit = auditWrites(load, await visibleState(system), before);
    return audit.lost.length === 0;
  }, 30_000).catch(() => undefined);
  const settleStarted = Date.now();
  const jobs = await webhook.settle(system, load.acknowledged);
  const deliveries = webhook.audit(load.acknowledged, jobs);
  const settledMs = Date.now() - settleStarted;
  await recordDuplicateJobs(system, webhook, webhook.duplicates(jobs));
  const figures = {
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
  };
  console.log(`reliability ${JSON.stringify(figures)}`);
  expect(load.acknowledged.length).toBeGreaterThan(0);
  expect(audit.lost).toEqual([]);
  expect(audit.duplicated).toEqual([]);
  expect(audit.phantom).toEqual([]);
  expect(load.rejected).toEqual([]);
  const token = await system.token();
  for (const gateway of gateways)
    for (const written of load.acknowledged) expect(await read(gateway, written, token)).toEqual(readBack(written));
  expectEveryEventDelivered(deliveries);
  await expectRebuiltEqualLive(system, webhook);
  return figures;
}

/** The stored evidence of events with two jobs, in the run's log directory (`duplicate-jobs.json`) and printed. */
async function recordDuplicateJobs(
  system: System,
  webhook: FollowedWebhook,
  duplicates: ReturnType<FollowedWebhook['duplicates']>,
) {
  if (duplicates.length === 0) return;
  const bucket = `${system.prefix}_webhook_jobs`;
  const evidence = await duplicateJobEvidence(system.natsOptions(), bucket, webhook.id, duplicates).catch(String);
  writeFileSync(join(system.logDir, 'duplicate-jobs.json'), `${JSON.stringify(evidence, null, 2)}\n`);
  console.log(`events with two jobs ${JSON.stringify(evidence)}`);
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

const services: ProcessName[] = ['identity', 'auth-methods', 'directory-sync', 'webhooks'];

/**
 * Read models in memory are rebuilt from position 0 of the event store at every start, and the
 * webhooks service reloads its jobs from their bucket: after a restart of every service, the
 * API shows exactly what it showed before.
 */
async function expectRebuiltEqualLive(system: System, webhook: FollowedWebhook): Promise<void> {
  await waitUntilFeedsCaughtUp(system.natsOptions());
  await waitUntilProjectionsCaughtUp(services.map((name) => system.metricsUrl(name)));
  const live = stateText(await visibleState(system));
  const liveJobs = JSON.stringify(await webhook.jobs(system));
  await system.restart(services);
  const rebuilt = stateText(await visibleState(system));
  // Both in the run's log directory to compare (jest's message cuts a long text).
  if (rebuilt !== live)
    for (const [name, text] of [
      ['live', live],
      ['rebuilt', rebuilt],
    ])
      writeFileSync(join(system.logDir, `${name}-state.json`), text);
  expect(rebuilt).toBe(live);
  expect(JSON.stringify(await webhook.jobs(system))).toBe(liveJobs);
}

/**
 * What an acknowledged write reads back as alone (`read`): its id, or for a SCIM push the identity
 * user of its email (and the given name a patch set).
 */
function readBack(written: Written): Record<string, unknown> {
  if (written.kind === 'scim-user') return { status: 200, email: written.key };
  if (written.kind === 'scim-patch') return { status: 200, email: written.key, givenName: written.givenName };
  return { status: 200, id: written.id };
}

/** The status and the fields `readBack` names of what `written` reads back as through `gateway`. */
async function read(gateway: string, written: Written, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${gateway}${readPath(written)}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json().catch(() => ({}))) as { id?: unknown; email?: unknown; profile?: { given_name?: unknown } };
  if (written.kind === 'scim-user') return { status: response.status, email: body.email };
  if (written.kind === 'scim-patch') return { status: response.status, email: body.email, givenName: body.profile?.given_name };
  return { status: response.status, id: body.id };
}

/** Where an acknowledged write reads back alone. */
function readPath(written: Written): string {
  const userByEmail = `/api/v2/org/${written.domain}/users/${encodeURIComponent(written.key)}`;
  const paths: Record<Written['kind'], string> = {
    organization: `/api/v2/organizations/${written.domain}`,
    user: `/api/v2/org/${written.domain}/users/${written.id}`,
    'redirect-uri': `/api/v2/redirect_uris/${written.id}`,
    relay: `/api/v2/relays/${written.id}`,
    webhook: `/api/v2/webhooks/${written.id}`,
    'scim-user': userByEmail,
    'scim-patch': userByEmail,
  };
  return paths[written.kind];
}
