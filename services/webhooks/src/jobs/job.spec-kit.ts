import type { NewJob } from './job-store';

/** A fresh delivery job of a `user.created` test event, as the fan-out enqueues it (tests only). */
export function aNewJob(eventId: string, webhookId: string, at = new Date().toISOString()): NewJob {
  return {
    environment: 'sandbox',
    webhook_id: webhookId,
    args: {
      __type__: 'Event',
      __domain__: null,
      __environment__: 'sandbox',
      id: eventId,
      code: 'user.created',
      data: { test: true },
      issued_at: at,
      webhook_id: webhookId,
      client_id: null,
      description: 'Test event',
    },
    state: 'available',
    attempt: 0,
    max_attempts: 5,
    attempted_at: null,
    scheduled_at: at,
    completed_at: null,
    cancelled_at: null,
    discarded_at: null,
    inserted_at: at,
    lease: null,
    last_error: null,
  };
}
