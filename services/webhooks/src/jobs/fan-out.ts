import type { WebhooksView } from '../webhooks/webhooks.module';
import type { PublicEvent } from '../events/event-mapping';
import { defaultMaxAttempts } from './domain/job.decider';
import type { Job } from './domain/job.decider';
import type { JobIndex } from './job-index';
import type { JobStore } from './job-store';

/**
 * One job per active webhook of the event's environment listening to its code. Idempotent:
 * the same event enqueued again answers the jobs it already has.
 */
export async function fanOut(event: PublicEvent, deps: { view: WebhooksView; store: JobStore; index: JobIndex }): Promise<Job[]> {
  const webhooks = await deps.view.documents.find({ environment: event.environment, active: true });
  const matching = webhooks.filter((webhook) => webhook.event_codes.includes(event.code));
  const now = new Date().toISOString();
  return Promise.all(
    matching.map(async (webhook) => {
      const stored = await deps.store.enqueue({
        environment: event.environment,
        webhook_id: webhook.id,
        args: {
          __type__: 'Event',
          __domain__: event.domain,
          __environment__: event.environment,
          id: event.id,
          code: event.code,
          data: event.data,
          issued_at: event.issued_at,
          webhook_id: webhook.id,
          client_id: event.client_id,
          description: event.description,
        },
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
        last_error: null,
      });
      deps.index.apply(stored.job.id, stored);
      return stored.job;
    }),
  );
}
