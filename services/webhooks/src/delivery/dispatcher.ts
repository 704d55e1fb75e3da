import { randomUUID } from 'node:crypto';
import { SpanKind, continueTrace } from '@sesame/platform';
import type { KeyRing, Logger, Metrics } from '@sesame/platform';
import type { AttemptOutcome, Backoff, Job } from '../jobs/domain/job.decider';
import type { JobIndex } from '../jobs/job-index';
import type { JobStore, StoredJob } from '../jobs/job-store';
import { signingKeys } from '../webhooks/domain/webhook.decider';
import type { WebhookState } from '../webhooks/domain/webhook.decider';
import { Lease } from './lease';
import type { Sender } from './sender';
import { signatureHeaders } from './signing';

/** Tries to record an attempt made, NATS not answering, before the job is left to its lease. */
const recordRetries = 8;
/** After a claim or record that failed: no retry in a tight loop while NATS does not answer. */
const pauseAfterFailureMs = 1_000;
/** How often pending jobs overdue by more than `overdueGraceMs` are read again from the bucket. */
const sweepEveryMs = 5_000;
const overdueGraceMs = 15_000;

export interface DispatcherOptions {
  store: JobStore;
  index: JobIndex;
  sender: Sender;
  keyRing: KeyRing;
  /** The live webhook of a job, or null when deleted. */
  webhook(id: string): Promise<WebhookState | null>;
  leaseMs: number;
  backoff: Backoff;
  concurrency: number;
  /** Deliveries in flight to one webhook at most (the rest of its due jobs wait their turn). */
  concurrencyPerWebhook: number;
  pollMs: number;
  logger: Logger;
  /** Called after each attempt (benchmarks). */
  onAttempt?(job: Job, startedAt: number): void;
  /** Counts attempts by outcome (`sesame_webhook_delivery_attempts_total`). */
  metrics?: Pick<Metrics, 'webhookDeliveries'>;
}

/**
 * Runs due jobs on this replica: claims each one with compare-and-set (the lease) on the job as
 * the index holds it, sends it signed while renewing the lease, records the outcome through the
 * job decider (retried while NATS does not answer). Any replica may run any job; a job whose
 * replica died is taken over when its lease expires. Wakes on new
 * jobs and polls for timers; takes due jobs from the index's queue (no scan of the backlog), at
 * most `concurrencyPerWebhook` of one webhook at a time.
 */
export class Dispatcher {
  readonly owner = randomUUID();
  private readonly busy = new Set<number>();
  private readonly perWebhook = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private sweeper?: NodeJS.Timeout;
  private wake = false;
  private stopped = false;
  private idle: (() => void)[] = [];

  constructor(private readonly options: DispatcherOptions) {}

  start(): void {
    this.options.index.onPending(() => this.schedule());
    this.timer = setInterval(() => this.schedule(), this.options.pollMs);
    this.sweeper = setInterval(() => void this.sweep(), sweepEveryMs);
    this.schedule();
  }

  /**
   * Jobs this replica should have run long ago: those its queue no longer holds are read again
   * from the bucket and queued as they stand; a lane whose jobs wait with no delivery of its
   * webhook running here lets its oldest go. In the cluster scenario with two replicas, a few jobs
   * stayed `executing` past their lease, no replica taking them over (cause not pinned down;
   * logged here when it happens). Scans the pending jobs only.
   */
  private async sweep(): Promise<void> {
    const overdue = this.options.index.overdue(Date.now(), overdueGraceMs).filter(({ id }) => !this.busy.has(id));
    const missed = overdue.filter(({ held }) => !held);
    for (const { webhookId } of overdue) if (!this.perWebhook.has(webhookId)) this.options.index.resume(webhookId);
    if (overdue.length > 0)
      this.options.logger.warn(
        {
          jobs: overdue
            .slice(0, 20)
            .map(({ id, held }) => `${id}:${this.options.index.stored(id)?.job.state}${held ? '' : ':unqueued'}`),
          overdue: overdue.length,
          unqueued: missed.length,
          running: this.busy.size,
          lanes: Object.fromEntries([...this.perWebhook].slice(0, 20)),
        },
        'webhook jobs overdue: the unqueued ones read again',
      );
    for (const { id } of missed) {
      if (this.stopped) return;
      const stored = await this.options.store.get(id).catch(() => undefined);
      if (stored === undefined) return;
      this.options.index.apply(id, stored);
      this.options.index.requeue(id);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.wake || this.stopped) return;
    this.wake = true;
    setImmediate(() => {
      this.wake = false;
      this.fill();
    });
  }

  private fill(): void {
    const free = this.options.concurrency - this.busy.size;
    if (free <= 0 || this.stopped) return;
    const admit = (webhookId: string) => {
      const running = this.perWebhook.get(webhookId) ?? 0;
      if (running >= this.options.concurrencyPerWebhook) return false;
      this.perWebhook.set(webhookId, running + 1);
      return true;
    };
    for (const { id, webhookId } of this.options.index.due(new Date().toISOString(), free, admit)) this.launch(id, webhookId);
  }

  private launch(id: number, webhookId: string): void {
    const done = () => {
      const running = (this.perWebhook.get(webhookId) ?? 1) - 1;
      if (running > 0) this.perWebhook.set(webhookId, running);
      else this.perWebhook.delete(webhookId);
      this.options.index.resume(webhookId);
    };
    // Already running here (its lease ran out meanwhile): the run in flight requeues it when it ends.
    if (this.busy.has(id)) return done();
    this.busy.add(id);
    void this.run(id)
      .catch(async (error: unknown) => {
        this.options.logger.error({ err: error, job: id }, 'webhook delivery failed to record');
        await this.reread(id);
        // NATS not answering (a leader being elected): the slot waits a little before the job is tried again.
        await new Promise((resolve) => setTimeout(resolve, pauseAfterFailureMs));
      })
      .finally(() => {
        this.busy.delete(id);
        done();
        this.options.index.requeue(id);
        if (this.busy.size === 0) for (const resolve of this.idle.splice(0)) resolve();
        this.schedule();
      });
  }

  private async run(id: number): Promise<void> {
    const now = () => new Date().toISOString();
    const claimed = await this.options.store.transition(
      id,
      { type: 'ClaimJob', data: { owner: this.owner, lease_ms: this.options.leaseMs, now: now() } },
      this.options.index.stored(id),
    );
    if (!claimed) return;
    this.options.index.apply(id, claimed);
    if (!claimed.changed || claimed.job.state !== 'executing' || claimed.job.lease?.owner !== this.owner) return;
    const lease = new Lease({ ...this.options, owner: this.owner }, id, claimed);
    try {
      await this.attempt(id, claimed, lease);
    } finally {
      await lease.release();
    }
  }

  /** Sends the claimed job while its lease holds (renewed meanwhile), and records the outcome. */
  private async attempt(id: number, claimed: StoredJob, lease: Lease): Promise<void> {
    const webhook = await this.options.webhook(claimed.job.webhook_id);
    if (!webhook || !webhook.active) {
      const command = { type: 'CancelJob' as const, data: { now: new Date().toISOString() } };
      const cancelled = await lease.recording(() => this.options.store.transition(id, command, this.options.index.stored(id)));
      if (cancelled) this.options.index.apply(id, cancelled);
      return;
    }
    // Claimed too long ago and taken over meanwhile: the other replica delivers it.
    if (!(await lease.held())) return;
    const startedAt = Date.now();
    const attributes = { 'sesame.webhook.attempt': claimed.job.attempt };
    const outcome = await continueTrace(claimed.job.trace, 'webhook deliver', { kind: SpanKind.CLIENT, attributes }, () =>
      this.options.sender.send(this.delivery(claimed.job, webhook)),
    );
    this.options.onAttempt?.(claimed.job, startedAt);
    this.options.metrics?.webhookDeliveries.inc({ outcome: outcome.kind });
    await lease.recording(() => this.record(id, outcome));
    if (outcome.kind === 'failed')
      this.options.logger.info(
        { job: id, attempt: claimed.job.attempt, error: outcome.error },
        'webhook delivery attempt failed',
      );
  }

  /**
   * Records the outcome, trying again while NATS does not answer (the lease is not renewed
   * meanwhile: see `Lease.recording`), so that an attempt made is not made again for want of its record.
   */
  private async record(id: number, outcome: AttemptOutcome): Promise<void> {
    for (let retry = 0; ; retry++) {
      const data = {
        owner: this.owner,
        outcome,
        backoff: this.options.backoff,
        jitter: Math.random(),
        now: new Date().toISOString(),
      };
      try {
        const recorded = await this.options.store.transition(id, { type: 'RecordAttempt', data }, this.options.index.stored(id));
        if (recorded) this.options.index.apply(id, recorded);
        return;
      } catch (error) {
        if (retry >= recordRetries || this.stopped) throw error;
        this.options.logger.warn({ err: error, job: id, retry }, 'webhook delivery not recorded yet');
        await new Promise((resolve) => setTimeout(resolve, Math.min(this.options.leaseMs / 4, 100 * 2 ** retry)));
      }
    }
  }

  /** After a failure to claim or record: the job as the bucket holds it, so that it is queued as it stands. */
  private async reread(id: number): Promise<void> {
    const stored = await this.options.store.get(id).catch(() => null);
    if (stored) this.options.index.apply(id, stored);
  }

  private delivery(job: Job, webhook: WebhookState) {
    const body = JSON.stringify(job.args);
    const keys = signingKeys(webhook, new Date().toISOString()).map((sealed) => this.options.keyRing.open(sealed));
    return { url: webhook.target_url, body, headers: signatureHeaders(keys, job.args.id, Math.floor(Date.now() / 1_000), body) };
  }

  /** Stops claiming jobs and waits (bounded) for deliveries in flight; unfinished ones are taken over after their lease. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.sweeper);
    if (this.busy.size === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
