import type { WebhookEventCode } from '@sesame/contracts';
import { isFinal } from '../jobs/domain/job.decider';
import type { Job } from '../jobs/domain/job.decider';
import { enqueueJob } from '../jobs/fan-out';
import type { JobIndex } from '../jobs/job-index';
import type { JobStore } from '../jobs/job-store';
import type { PublicEvent } from '../events/event-mapping';
import type { WebhookState } from '../webhooks/domain/webhook.decider';
import type { FeedEntry } from './feed-entry';

/** The event of a feed entry as webhooks publish it: its id (the `webhook-id`), payload and API key kept. */
export const publicEventOf = (entry: FeedEntry): PublicEvent => ({
  id: entry._id,
  code: entry.code as WebhookEventCode,
  data: entry.data as PublicEvent['data'],
  domain: entry.organization_domain,
  environment: entry.environment,
  issued_at: entry.occurred_at,
  client_id: entry.actor?.type === 'api_key' ? entry.actor.id : null,
  description: entry.description,
});

/**
 * Delivers `entries` to `webhook` again, in order: a new job for an event it has none of (its
 * old one deleted after the retention, or never made), the pending job it has left as it is, a
 * finished one (completed, discarded, cancelled) retried. Every delivery carries the event id
 * as its `webhook-id`, so a receiver that keeps the ids it saw can drop the ones it had.
 */
export async function replayToWebhook(
  webhook: Pick<WebhookState, 'id' | 'organization_domain'>,
  entries: FeedEntry[],
  deps: { store: JobStore; index: JobIndex; now(): Date },
): Promise<Job[]> {
  const jobs: Job[] = [];
  for (const entry of entries) {
    const stored = await enqueueJob(webhook, publicEventOf(entry), deps);
    if (!isFinal(stored.job)) {
      jobs.push(stored.job);
      continue;
    }
    const retry = { type: 'RetryJob' as const, data: { now: deps.now().toISOString() } };
    const retried = await deps.store.transition(stored.job.id, retry, stored);
    if (retried) deps.index.apply(stored.job.id, retried);
    jobs.push(retried?.job ?? stored.job);
  }
  return jobs;
}
