import { eventSchema } from '@sesame/contracts';
import { currentTraceContext } from '@sesame/platform';
import type { WebhookState } from '../webhooks/domain/webhook.decider';
import type { WebhooksView } from '../webhooks/webhooks.deps';
import type { PublicEvent } from '../events/event-mapping';
import { defaultMaxAttempts } from './domain/job.decider';
import type { Job } from './domain/job.decider';
import type { JobIndex } from './job-index';
import type { JobStore, StoredJob } from './job-store';

/**
 * Whether a webhook receives an event of its environment: it listens to the code and is unscoped
 * or scoped to the event's organization (an event of no organization reaches unscoped webhooks
 * only). A test event reaches every webhook listening to its code.
 */
export const receives = (
  webhook: Pick<WebhookState, 'event_codes' | 'organization_domain'>,
  event: Pick<PublicEvent, 'code' | 'domain'>,
  test = false,
): boolean =>
  webhook.event_codes.includes(event.code) &&
  (test ||
    webhook.organization_domain === null ||
    webhook.organization_domain === undefined ||
    webhook.organization_domain === event.domain);

/**
 * One job per active webhook of the event's environment that receives it. Idempotent: the same
 * event enqueued again answers the jobs it already has. A test event names the organization of a
 * scoped webhook.
 */
export async function fanOut(
  event: PublicEvent,
  deps: { view: WebhooksView; store: JobStore; index: JobIndex },
  test = false,
): Promise<Job[]> {
  const webhooks = await deps.view.documents.find({ environment: event.environment, active: true });
  const matching = webhooks.filter((webhook) => receives(webhook, event, test));
  return Promise.all(matching.map(async (webhook) => (await enqueueJob(webhook, event, deps, test)).job));
}

/**
 * The job of `event` for `webhook`: a new one, or the one it already has (the event id and the
 * webhook id are its idempotency key; its `webhook-id` header is the event id).
 */
export async function enqueueJob(
  webhook: Pick<WebhookState, 'id' | 'organization_domain'>,
  event: PublicEvent,
  deps: { store: JobStore; index: JobIndex },
  test = false,
): Promise<StoredJob> {
  const now = new Date().toISOString();
  const stored = await deps.store.enqueue({
    environment: event.environment,
    webhook_id: webhook.id,
    // Parsed: every queued event is one of the published shapes (its code's payload, or a test event).
    args: eventSchema.parse({
      __type__: 'Event',
      __domain__: test ? (webhook.organization_domain ?? event.domain) : event.domain,
      __environment__: event.environment,
      id: event.id,
      code: event.code,
      data: event.data,
      issued_at: event.issued_at,
      webhook_id: webhook.id,
      client_id: event.client_id,
      description: event.description,
    }),
    state: 'available',
    attempt: 0,
    max_attempts: defaultMaxAttempts,
    attempted_at: null,
    scheduled_at: now,
    completed_at: null,
    cancelled_at: null,
    discarded_at: null,
    inserted_at: now,
    lease: null,
    trace: currentTraceContext(),
    last_error: null,
  });
  deps.index.apply(stored.job.id, stored);
  return stored;
}
