import type { Environment } from '@sesame/contracts';
import { dueAt, finishedAt, isFinal } from './domain/job.decider';
import type { Job, JobState } from './domain/job.decider';
import { DueQueue } from './due-queue';
import type { StoredJob } from './job-store';

export interface JobFilter {
  environment: Environment;
  state?: JobState;
  webhook_id?: string;
}

/**
 * This replica's view of every job, fed by the bucket's watch and by its own writes (the higher
 * revision wins, so it never goes back). Pending jobs are also queued by due time for the
 * dispatcher, one lane per webhook.
 */
export class JobIndex {
  private readonly jobs = new Map<number, StoredJob>();
  private readonly pending = new Map<number, StoredJob>();
  private readonly queue = new DueQueue((entry) => this.pending.get(entry.id)?.revision === entry.revision);
  private readonly listeners: (() => void)[] = [];

  onPending(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Whether this replica already holds the job at `revision` or a later one (nothing to read). */
  knows(id: number, revision: number): boolean {
    return (this.jobs.get(id)?.revision ?? -1) >= revision;
  }

  /** A change seen on the bucket's watch: read (decoded) only when this replica does not hold it yet. */
  readonly observe = (id: number, revision: number, read: () => StoredJob | null): void => {
    if (!this.knows(id, revision)) this.apply(id, read());
  };

  apply(id: number, stored: StoredJob | null): void {
    if (!stored) {
      this.jobs.delete(id);
      this.pending.delete(id);
      return;
    }
    if (this.knows(id, stored.revision)) return;
    this.jobs.set(id, stored);
    if (isFinal(stored.job)) this.pending.delete(id);
    else {
      this.pending.set(id, stored);
      this.requeue(id);
      for (const listener of this.listeners) listener();
    }
  }

  /** Queues the job again as it stands (after a delivery that wrote nothing, say); no-op when final. */
  requeue(id: number): void {
    const stored = this.pending.get(id);
    const at = stored ? dueAt(stored.job) : null;
    if (stored && at !== null) this.queue.push({ at, id, revision: stored.revision, lane: stored.job.webhook_id });
  }

  /** The job as this replica last saw it, with its revision. */
  stored(id: number): StoredJob | null {
    return this.jobs.get(id) ?? null;
  }

  get(id: number): Job | null {
    return this.jobs.get(id)?.job ?? null;
  }

  /** A page of the jobs matching `filter`, newest first, and how many match. */
  page(filter: JobFilter, skip: number, limit: number): { jobs: Job[]; total: number } {
    const matching = [...this.jobs.values()]
      .map((stored) => stored.job)
      .filter(
        (job) =>
          job.environment === filter.environment &&
          (filter.state === undefined || job.state === filter.state) &&
          (filter.webhook_id === undefined || job.webhook_id === filter.webhook_id),
      )
      .sort((a, b) => b.id - a.id);
    return { jobs: matching.slice(skip, skip + limit), total: matching.length };
  }

  /**
   * Up to `limit` jobs due at `now`, oldest first, taken off the queue; `admit` is asked for each
   * job's webhook and counts it (jobs of a webhook it refuses wait until `resume` of that webhook).
   */
  due(now: string, limit: number, admit: (webhookId: string) => boolean): { id: number; webhookId: string }[] {
    return this.queue.take(now, limit, admit).map((entry) => ({ id: entry.id, webhookId: entry.lane }));
  }

  /** A delivery of the webhook ended: its next waiting job may go. */
  resume(webhookId: string): void {
    this.queue.resume(webhookId);
  }

  /**
   * Pending jobs due for longer than `graceMs` at `now`, with the webhook of each, and whether the
   * queue still holds them as they stand (else they were missed: a queue entry lost, say).
   */
  overdue(now: number, graceMs: number): { id: number; webhookId: string; held: boolean }[] {
    const overdue: { id: number; webhookId: string; held: boolean }[] = [];
    for (const [id, { job, revision }] of this.pending) {
      const at = dueAt(job);
      const since = at === null ? Infinity : at === '' ? Date.parse(job.inserted_at) : Date.parse(at);
      if (since < now - graceMs) overdue.push({ id, webhookId: job.webhook_id, held: this.queue.holds({ id, revision }) });
    }
    return overdue;
  }

  /** Jobs not finished yet and when the oldest of them was inserted (metrics: backlog, oldest job age). */
  backlog(): { waiting: number; oldestInsertedAt: string | null } {
    let oldest: string | null = null;
    for (const { job } of this.pending.values()) if (oldest === null || job.inserted_at < oldest) oldest = job.inserted_at;
    return { waiting: this.pending.size, oldestInsertedAt: oldest };
  }

  /** Final jobs that ended before `cutoff`, with the revision to delete them at. */
  expired(cutoff: string): StoredJob[] {
    return [...this.jobs.values()].filter((stored) => isFinal(stored.job) && (finishedAt(stored.job) ?? '') < cutoff);
  }
}
