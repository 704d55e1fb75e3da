import type { Logger } from '@sesame/platform';
import type { JobIndex } from '../jobs/job-index';
import type { JobStore, StoredJob } from '../jobs/job-store';

export interface LeaseOptions {
  store: JobStore;
  index: JobIndex;
  owner: string;
  leaseMs: number;
  logger: Logger;
}

/**
 * Holds the lease of a job this replica claimed while its delivery is in flight: renewed (compare-
 * and-set) every third of the lease, so that another replica takes the job over only when this one
 * really stopped (crash, cut off from NATS for a whole lease), never because an answer or a record
 * was slow. Renewals run one at a time; once the job is no longer this replica's, it is lost.
 */
export class Lease {
  private readonly timer: NodeJS.Timeout;
  private renewing: Promise<void> = Promise.resolve();
  private until: number;
  private lost = false;
  private paused = false;

  constructor(
    private readonly options: LeaseOptions,
    private readonly id: number,
    claimed: StoredJob,
  ) {
    this.until = Date.parse(claimed.job.lease?.until ?? '');
    this.timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(options.leaseMs / 3)));
  }

  /** Whether the job is still this replica's, renewing the lease first when less than two thirds of it are left. */
  async held(): Promise<boolean> {
    if (!this.lost && this.until - Date.now() < (2 * this.options.leaseMs) / 3) await this.renew();
    return !this.lost && this.until > Date.now();
  }

  /**
   * Writes the job's outcome (`write`) with no renewal of this lease in flight or started
   * meanwhile: both would write over the same revision, and on a replicated stream of
   * nats-server before 2.9.21 both may be accepted (nats-server#4320), the renewal of the claimed
   * job landing after the outcome and undoing it (8 completed jobs found executing again after a
   * kill -9 of a node in the cluster scenario).
   */
  async recording<T>(write: () => Promise<T>): Promise<T> {
    this.paused = true;
    try {
      await this.renewing;
      return await write();
    } finally {
      this.paused = false;
    }
  }

  /** Stops renewing (after the attempt is recorded, or given up). */
  async release(): Promise<void> {
    clearInterval(this.timer);
    this.lost = true;
    await this.renewing;
  }

  private renew(): Promise<void> {
    if (this.paused) return this.renewing;
    this.renewing = this.renewing.then(() => (this.lost || this.paused ? undefined : this.write()));
    return this.renewing;
  }

  private async write(): Promise<void> {
    const { store, index, owner, leaseMs, logger } = this.options;
    const now = Date.now();
    try {
      const command = { type: 'RenewLease' as const, data: { owner, lease_ms: leaseMs, now: new Date(now).toISOString() } };
      const renewed = await store.transition(this.id, command, index.stored(this.id));
      if (renewed) index.apply(this.id, renewed);
      if (!renewed?.changed) this.lost = true;
      else this.until = now + leaseMs;
    } catch (error) {
      // Not renewed this time: the lease may still hold; the next renewal tries again.
      logger.warn({ err: error, job: this.id }, 'webhook job lease not renewed');
    }
  }
}
