import type { Environment, WebhookEvent, WebhookPayloadEvent, webhookEventStates } from '@sesame/contracts';
import type { Decider } from '@sesame/platform';

export type JobState = (typeof webhookEventStates)[number];

/** A delivery job as stored: the public `WebhookEvent` fields plus its lease and last error. */
export interface Job {
  id: number;
  environment: Environment;
  webhook_id: string;
  args: WebhookPayloadEvent;
  state: JobState;
  attempt: number;
  max_attempts: number;
  attempted_at: string | null;
  scheduled_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  discarded_at: string | null;
  inserted_at: string;
  /** The replica executing the job and until when; another one may take it over after. */
  lease: { owner: string; until: string } | null;
  last_error: string | null;
  /** W3C trace context of the event's commit: each delivery attempt continues that trace. */
  trace?: { traceparent?: string; tracestate?: string };
}

export const defaultMaxAttempts = 5;
/** Attempts answered with `Retry-After` do not count, up to this many attempts in all. */
export const attemptCeiling = 2 * defaultMaxAttempts;

export interface Backoff {
  base_ms: number;
  max_ms: number;
}

export type AttemptOutcome = { kind: 'delivered' } | { kind: 'failed'; error: string; retry_after_ms: number | null };

export type JobCommand =
  | { type: 'ClaimJob'; data: { owner: string; lease_ms: number; now: string } }
  | {
      type: 'RecordAttempt';
      data: { owner: string; outcome: AttemptOutcome; backoff: Backoff; /** in [0, 1) */ jitter: number; now: string };
    }
  /** The holder of a job still delivering it: its lease runs `lease_ms` from now (no takeover meanwhile). */
  | { type: 'RenewLease'; data: { owner: string; lease_ms: number; now: string } }
  | { type: 'RetryJob'; data: { now: string } }
  | { type: 'CancelJob'; data: { now: string } };

export type JobEvent =
  | { type: 'JobEnqueued'; data: { job: Job } }
  | { type: 'JobClaimed'; data: { owner: string; attempt: number; lease_until: string; at: string } }
  | { type: 'JobLeaseRenewed'; data: { owner: string; lease_until: string } }
  | { type: 'JobCompleted'; data: { at: string } }
  | { type: 'JobFailed'; data: { error: string; scheduled_at: string; at: string } }
  | { type: 'JobSnoozed'; data: { error: string; scheduled_at: string; max_attempts: number; at: string } }
  | { type: 'JobDiscarded'; data: { error: string; at: string } }
  | { type: 'JobRetried'; data: { max_attempts: number; at: string } }
  | { type: 'JobCancelled'; data: { at: string } };

export const pendingStates: readonly JobState[] = ['available', 'scheduled', 'executing', 'retryable'];
export const isFinal = (job: Job) => !pendingStates.includes(job.state);

/** From when a replica may start (or take over) the job: '' for at once, null for never (final). */
export function dueAt(job: Job): string | null {
  if (job.state === 'available') return '';
  if (job.state === 'scheduled' || job.state === 'retryable') return job.scheduled_at ?? '';
  if (job.state === 'executing') return job.lease?.until ?? '';
  return null;
}

/** Whether a replica may start (or take over) the job at `now`. */
export function isDue(job: Job, now: string): boolean {
  const at = dueAt(job);
  return at !== null && at <= now;
}

/** Exponential backoff with equal jitter: half the doubled delay fixed, half random. */
export function backoffDelay(attempt: number, backoff: Backoff, jitter: number): number {
  const exponential = Math.min(backoff.max_ms, backoff.base_ms * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + (exponential / 2) * jitter);
}

const plus = (now: string, ms: number) => new Date(Date.parse(now) + ms).toISOString();

function claim(job: Job, data: Extract<JobCommand, { type: 'ClaimJob' }>['data']): JobEvent[] {
  if (!isDue(job, data.now)) return [];
  // Taken over after a crash with no attempt left: the lost attempt counted.
  if (job.state === 'executing' && job.attempt >= job.max_attempts)
    return [{ type: 'JobDiscarded', data: { error: 'lease expired during the last attempt', at: data.now } }];
  return [
    {
      type: 'JobClaimed',
      data: { owner: data.owner, attempt: job.attempt + 1, lease_until: plus(data.now, data.lease_ms), at: data.now },
    },
  ];
}

function record(job: Job, data: Extract<JobCommand, { type: 'RecordAttempt' }>['data']): JobEvent[] {
  // Cancelled, or taken over by another replica meanwhile: this result no longer counts.
  if (job.state !== 'executing' || job.lease?.owner !== data.owner) return [];
  const { outcome, now } = data;
  if (outcome.kind === 'delivered') return [{ type: 'JobCompleted', data: { at: now } }];
  if (outcome.retry_after_ms !== null && job.max_attempts < attemptCeiling)
    return [
      {
        type: 'JobSnoozed',
        data: {
          error: outcome.error,
          scheduled_at: plus(now, outcome.retry_after_ms),
          max_attempts: job.max_attempts + 1,
          at: now,
        },
      },
    ];
  if (job.attempt >= job.max_attempts) return [{ type: 'JobDiscarded', data: { error: outcome.error, at: now } }];
  const delay = backoffDelay(job.attempt, data.backoff, data.jitter);
  return [{ type: 'JobFailed', data: { error: outcome.error, scheduled_at: plus(now, delay), at: now } }];
}

/**
 * The life of a delivery job (SPEC.md section 4): available → executing → completed, or
 * retryable (backoff) / scheduled (`Retry-After`) → executing again, until discarded at the
 * attempt limit; cancelled by hand; any job but an available or executing one can be retried.
 */
export const jobDecider: Decider<Job | null, JobCommand, JobEvent> = {
  initialState: () => null,
  decide(command, job) {
    if (!job) return [];
    switch (command.type) {
      case 'ClaimJob':
        return claim(job, command.data);
      case 'RecordAttempt':
        return record(job, command.data);
      case 'RenewLease': {
        // Only the holder renews, and only while the job is still its (not taken over, not cancelled).
        const { owner, lease_ms, now } = command.data;
        if (job.state !== 'executing' || job.lease?.owner !== owner) return [];
        return [{ type: 'JobLeaseRenewed', data: { owner, lease_until: plus(now, lease_ms) } }];
      }
      case 'RetryJob':
        if (job.state === 'available' || job.state === 'executing') return [];
        return [
          { type: 'JobRetried', data: { max_attempts: Math.max(job.max_attempts, job.attempt + 1), at: command.data.now } },
        ];
      case 'CancelJob':
        return isFinal(job) ? [] : [{ type: 'JobCancelled', data: { at: command.data.now } }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(job, event) {
    if (event.type === 'JobEnqueued') return event.data.job;
    if (!job) return job;
    switch (event.type) {
      case 'JobClaimed': {
        const { owner, attempt, lease_until, at } = event.data;
        return { ...job, state: 'executing', attempt, attempted_at: at, lease: { owner, until: lease_until } };
      }
      case 'JobLeaseRenewed':
        return { ...job, lease: { owner: event.data.owner, until: event.data.lease_until } };
      case 'JobCompleted':
        return { ...job, state: 'completed', completed_at: event.data.at, lease: null };
      case 'JobFailed':
        return { ...job, state: 'retryable', scheduled_at: event.data.scheduled_at, last_error: event.data.error, lease: null };
      case 'JobSnoozed': {
        const { error, scheduled_at, max_attempts } = event.data;
        return { ...job, state: 'scheduled', scheduled_at, max_attempts, last_error: error, lease: null };
      }
      case 'JobDiscarded':
        return { ...job, state: 'discarded', discarded_at: event.data.at, last_error: event.data.error, lease: null };
      case 'JobRetried': {
        const { max_attempts, at } = event.data;
        return {
          ...job,
          state: 'available',
          max_attempts,
          scheduled_at: at,
          completed_at: null,
          cancelled_at: null,
          discarded_at: null,
        };
      }
      case 'JobCancelled':
        return { ...job, state: 'cancelled', cancelled_at: event.data.at, lease: null };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};

/** When a final job ended (null while pending). */
export function finishedAt(job: Job): string | null {
  return job.completed_at ?? job.cancelled_at ?? job.discarded_at;
}

/** The job as the API shows it; the cancel answer spells the state `canceled` (SPEC.md section 4). */
export function toWebhookEvent(job: Job, spelling: 'cancel-answer' | 'default' = 'default'): WebhookEvent {
  return {
    id: job.id,
    args: job.args,
    attempt: job.attempt,
    max_attempts: job.max_attempts,
    state: spelling === 'cancel-answer' && job.state === 'cancelled' ? 'canceled' : job.state,
    attempted_at: job.attempted_at,
    scheduled_at: job.scheduled_at,
    completed_at: job.completed_at,
    cancelled_at: job.cancelled_at,
    discarded_at: job.discarded_at,
    inserted_at: job.inserted_at,
  };
}
