import type { Environment } from '@sesame/contracts';
import { finishedAt, isDue, isFinal } from './domain/job.decider';
import type { Job, JobState } from './domain/job.decider';
import type { StoredJob } from './job-store';

export interface JobFilter {
  environment: Environment;
  state?: JobState;
  webhook_id?: string;
}

/**
 * This replica's view of every job, fed by the bucket's watch and by its own writes (the higher
 * revision wins, so it never goes back). Pending jobs are also kept apart for the dispatcher.
 */
export class JobIndex {
  private readonly jobs = new Map<number, StoredJob>();
  private readonly pending = new Map<number, Job>();
  private readonly listeners: (() => void)[] = [];

  onPending(listener: () => void): void {
    this.listeners.push(listener);
  }

  apply(id: number, stored: StoredJob | null): void {
    if (!stored) {
      this.jobs.delete(id);
      this.pending.delete(id);
      return;
    }
    const known = this.jobs.get(id);
    if (known && known.revision >= stored.revision) return;
    this.jobs.set(id, stored);
    if (isFinal(stored.job)) this.pending.delete(id);
    else {
      this.pending.set(id, stored.job);
      for (const listener of this.listeners) listener();
    }
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

  /** Up to `limit` jobs due at `now`, oldest first, skipping `busy` ones. */
  due(now: string, limit: number, busy: ReadonlySet<number>): number[] {
    const ids: number[] = [];
    for (const [id, job] of this.pending) {
      if (ids.length >= limit) break;
      if (!busy.has(id) && isDue(job, now)) ids.push(id);
    }
    return ids;
  }

  /** Jobs not finished yet and when the oldest of them was inserted (metrics: backlog, oldest job age). */
  backlog(): { waiting: number; oldestInsertedAt: string | null } {
    let oldest: string | null = null;
    for (const job of this.pending.values()) if (oldest === null || job.inserted_at < oldest) oldest = job.inserted_at;
    return { waiting: this.pending.size, oldestInsertedAt: oldest };
  }

  /** Final jobs that ended before `cutoff`, with the revision to delete them at. */
  expired(cutoff: string): StoredJob[] {
    return [...this.jobs.values()].filter((stored) => isFinal(stored.job) && (finishedAt(stored.job) ?? '') < cutoff);
  }
}
