import type { OrganizationEvent } from '@sesame/contracts';
import { acknowledgeOrganization } from '@sesame/platform';
import { subscribeToServiceEvents } from '@sesame/platform/messaging';
import type { RecordedEvent, Subscription } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { fanOut } from '../jobs/fan-out';
import type { JobIndex } from '../jobs/job-index';
import type { JobStore } from '../jobs/job-store';
import { deleteWebhooksOfDeletedOrganization } from '../webhooks/organization-deletion';
import type { OrganizationDeleted } from '../webhooks/organization-deletion';
import type { WebhooksView } from '../webhooks/webhooks.module';
import { eventSources } from './event-mapping';
import type { PublicEvent } from './event-mapping';
import { PayloadMismatch } from './public-payload';

type OrganizationCreated = RecordedEvent & Extract<OrganizationEvent, { type: 'OrganizationCreated' }>;

/** Commits of a source service turned into jobs at once by a replica (those of one stream in order). */
const reactorParallelCommits = 16;

/**
 * Turns the events of the other services into delivery jobs: one durable feed per source
 * service, shared by the replicas. A redelivered commit finds its jobs already there (the event
 * id is the idempotency key), so nothing is lost nor doubled. Identity's `OrganizationDeleted` first
 * deletes the webhooks scoped to that organization (the read model is updated inline), so its
 * `organization.deleted` reaches the unscoped webhooks only, never a job bound to be cancelled.
 * A new organization is acknowledged once its `organization.created` jobs are queued (identity
 * counts it towards the organization's provisioning).
 */
export function startEventReactor(
  runtime: ServiceRuntime,
  deps: { view: WebhooksView; store: JobStore; index: JobIndex },
): Subscription[] {
  return eventSources.map(({ source, map }) =>
    subscribeToServiceEvents({
      nc: runtime.nc,
      prefix: runtime.config.SESAME_PREFIX,
      source,
      consumer: `webhooks-from-${source}`,
      logger: runtime.logger,
      // Fan-out is idempotent and deliveries are unordered: commits of different streams are queued
      // at once (one at a time, the feed capped event → delivery at ~1 commit per two KV writes).
      parallelCommits: reactorParallelCommits,
      onCommit: async (commit) => {
        for (const event of commit.events) {
          if (source === 'identity' && event.type === 'OrganizationDeleted')
            await deleteWebhooksOfDeletedOrganization(runtime, deps.view, event as OrganizationDeleted);
          const published = publishable(runtime, event, map);
          if (published) await fanOut(published, deps);
          if (source === 'identity' && event.type === 'OrganizationCreated')
            await acknowledgeOrganization(runtime.commandDeps(), event as OrganizationCreated, 'webhooks:organizations');
        }
      },
    }),
  );
}

/**
 * The public event of `event`, if it has one. A payload its code's schema refuses (a mapping bug)
 * is logged (paths, never values) and not published, rather than holding up every later event of
 * the feed.
 */
function publishable(runtime: ServiceRuntime, event: RecordedEvent, map: (event: RecordedEvent) => PublicEvent | null) {
  try {
    return map(event);
  } catch (error) {
    if (!(error instanceof PayloadMismatch)) throw error;
    runtime.logger.error(
      { event_id: event.id, type: event.type, code: error.code, issues: error.issues },
      'webhook payload refused by its schema; not published',
    );
    return null;
  }
}
