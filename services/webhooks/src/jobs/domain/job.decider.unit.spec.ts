import { deciderSpecification } from '@sesame/platform/testing';
import { fold } from '@sesame/platform';
import { aNewJob } from '../job.spec-kit';
import { backoffDelay, isDue, jobDecider, toWebhookEvent } from './job.decider';
import type { Job, JobCommand, JobEvent } from './job.decider';

const spec = deciderSpecification(jobDecider);
const t0 = '2026-01-01T00:00:00.000Z';
const t1 = '2026-01-01T00:00:01.000Z';
const backoff = { base_ms: 1_000, max_ms: 60_000 };
const job: Job = { id: 7, ...aNewJob('e1', 'webhook_1', t0) };
const enqueued: JobEvent = { type: 'JobEnqueued', data: { job } };
const claim = (owner: string, now = t0): JobCommand => ({ type: 'ClaimJob', data: { owner, lease_ms: 30_000, now } });
const claimed = (attempt: number, owner = 'a', at = t0): JobEvent => ({
  type: 'JobClaimed',
  data: { owner, attempt, lease_until: new Date(Date.parse(at) + 30_000).toISOString(), at },
});
const failed = (retry_after_ms: number | null = null, owner = 'a'): JobCommand => ({
  type: 'RecordAttempt',
  data: { owner, outcome: { kind: 'failed', error: 'HTTP 500', retry_after_ms }, backoff, jitter: 0, now: t1 },
});
const failedEvent = (scheduled_at: string): JobEvent => ({
  type: 'JobFailed',
  data: { error: 'HTTP 500', scheduled_at, at: t1 },
});

describe('delivery job decider', () => {
  it('claims an available job with a lease; only one claim while the lease holds', () => {
    spec
      .given([enqueued])
      .when(claim('a'))
      .then([claimed(1)]);
    spec
      .given([enqueued, claimed(1)])
      .when(claim('b', t1))
      .thenNothingHappens();
  });

  it('lets another replica take over an executing job whose lease expired', () => {
    const after = '2026-01-01T00:00:30.000Z';
    spec
      .given([enqueued, claimed(1)])
      .when(claim('b', after))
      .then([claimed(2, 'b', after)]);
  });

  it('renews the lease of its holder only, while the job is executing', () => {
    const renew = (owner: string): JobCommand => ({ type: 'RenewLease', data: { owner, lease_ms: 30_000, now: t1 } });
    const renewed: JobEvent = { type: 'JobLeaseRenewed', data: { owner: 'a', lease_until: '2026-01-01T00:00:31.000Z' } };
    spec
      .given([enqueued, claimed(1)])
      .when(renew('a'))
      .then([renewed]);
    spec
      .given([enqueued, claimed(1)])
      .when(renew('b'))
      .thenNothingHappens();
    spec
      .given([enqueued, claimed(1), { type: 'JobCompleted', data: { at: t1 } }])
      .when(renew('a'))
      .thenNothingHappens();
    // Renewed, nobody takes it over at the first lease's end.
    spec
      .given([enqueued, claimed(1), renewed])
      .when(claim('b', '2026-01-01T00:00:30.000Z'))
      .thenNothingHappens();
  });

  it('completes on a 2xx, and ignores a result from a replica that lost its lease', () => {
    const delivered = (owner: string): JobCommand => ({
      type: 'RecordAttempt',
      data: { owner, outcome: { kind: 'delivered' }, backoff, jitter: 0.5, now: t1 },
    });
    spec
      .given([enqueued, claimed(1)])
      .when(delivered('a'))
      .then([{ type: 'JobCompleted', data: { at: t1 } }]);
    spec
      .given([enqueued, claimed(1)])
      .when(delivered('b'))
      .thenNothingHappens();
  });

  it('retries a failure with exponential backoff, then discards at the fifth attempt', () => {
    spec
      .given([enqueued, claimed(1)])
      .when(failed())
      .then([failedEvent('2026-01-01T00:00:01.500Z')]);
    spec
      .given([enqueued, claimed(1), failedEvent(t1), claimed(2)])
      .when(failed())
      .then([failedEvent('2026-01-01T00:00:02.000Z')]);
    const history = [1, 2, 3, 4].flatMap((attempt) => [claimed(attempt), failedEvent(t1)]);
    spec
      .given([enqueued, ...history, claimed(5)])
      .when(failed())
      .then([{ type: 'JobDiscarded', data: { error: 'HTTP 500', at: t1 } }]);
  });

  it('honours Retry-After: scheduled at that time, and that attempt does not count', () => {
    spec
      .given([enqueued, claimed(1)])
      .when(failed(120_000))
      .then([
        {
          type: 'JobSnoozed',
          data: { error: 'HTTP 500', scheduled_at: '2026-01-01T00:02:01.000Z', max_attempts: 6, at: t1 },
        },
      ]);
  });

  it('discards a job taken over after a crash during its last attempt', () => {
    const history = [1, 2, 3, 4].flatMap((attempt) => [claimed(attempt), failedEvent(t1)]);
    const after = '2026-01-01T00:01:00.000Z';
    spec
      .given([enqueued, ...history, claimed(5)])
      .when(claim('b', after))
      .then([{ type: 'JobDiscarded', data: { error: 'lease expired during the last attempt', at: after } }]);
  });

  it('retries by hand: available again, with one more attempt allowed past the limit', () => {
    const history = [1, 2, 3, 4, 5].flatMap((attempt) => [claimed(attempt), failedEvent(t1)]);
    const retry: JobCommand = { type: 'RetryJob', data: { now: t1 } };
    spec
      .given([enqueued, ...history])
      .when(retry)
      .then([{ type: 'JobRetried', data: { max_attempts: 6, at: t1 } }]);
    spec.given([enqueued]).when(retry).thenNothingHappens();
    const state = fold(jobDecider, [
      enqueued,
      claimed(1),
      { type: 'JobCompleted', data: { at: t1 } },
      { type: 'JobRetried', data: { max_attempts: 5, at: t1 } },
    ]);
    expect(state).toMatchObject({ state: 'available', completed_at: null, scheduled_at: t1 });
  });

  it("cancels a pending job, answered with the spelling 'canceled'; a final one stays as it is", () => {
    const cancel: JobCommand = { type: 'CancelJob', data: { now: t1 } };
    spec
      .given([enqueued, claimed(1)])
      .when(cancel)
      .then([{ type: 'JobCancelled', data: { at: t1 } }]);
    spec
      .given([enqueued, claimed(1), { type: 'JobCompleted', data: { at: t1 } }])
      .when(cancel)
      .thenNothingHappens();
    const cancelled = fold(jobDecider, [enqueued, { type: 'JobCancelled', data: { at: t1 } }]) as Job;
    expect(toWebhookEvent(cancelled, 'cancel-answer').state).toBe('canceled');
    expect(toWebhookEvent(cancelled).state).toBe('cancelled');
  });

  it('knows when a job is due', () => {
    expect(isDue(job, t0)).toBe(true);
    const retryable = { ...job, state: 'retryable' as const, scheduled_at: t1 };
    expect(isDue(retryable, t0)).toBe(false);
    expect(isDue(retryable, t1)).toBe(true);
    expect(isDue({ ...job, state: 'completed' }, t1)).toBe(false);
  });

  it('doubles the backoff per attempt, capped, with jitter on half of it', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, backoff, 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(backoffDelay(3, backoff, 0.999)).toBe(3_998);
    expect(backoffDelay(10, backoff, 1)).toBe(60_000);
  });
});
