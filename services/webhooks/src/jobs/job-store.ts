import { JSONCodec, headers } from 'nats';
import type { JetStreamClient, KV, KvEntry, NatsConnection } from 'nats';
import { isJetStreamWriteConflict, openKvBucket } from '@sesame/platform/messaging';
import { jobDecider } from './domain/job.decider';
import type { Job, JobCommand } from './domain/job.decider';

const codec = JSONCodec<Job>();
const jobKey = (id: number) => `job.${id}`;
/** One marker per (webhook, event): its creation revision is the job's integer id. */
const eventKey = (webhookId: string, eventId: string) => `event.${webhookId}.${eventId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
/** Another writer wrote the key first: the revision written over is no longer the last. */
class WriteConflict extends Error {}
const isWrongLastSequence = (error: unknown) => error instanceof WriteConflict || isJetStreamWriteConflict(error);

export interface StoredJob {
  job: Job;
  revision: number;
}

export type NewJob = Omit<Job, 'id'>;

/**
 * Delivery jobs in a JetStream key-value bucket, shared by every replica. Each change goes
 * through the job decider and is written with compare-and-set on the entry's revision, so two
 * replicas can never both claim a job (the claim is the lease). Ids are the revisions of the
 * per-event markers: integers, increasing, and the same job for a redelivered event.
 */
export class JobStore {
  private constructor(
    private readonly kv: KV,
    private readonly js: JetStreamClient,
    private readonly bucket: string,
  ) {}

  static async open(nc: NatsConnection, prefix: string, replicas: number): Promise<JobStore> {
    const bucket = `${prefix}_webhook_jobs`;
    // Created under the start's own timeout (`bucketSetupTimeoutMs`: a bucket of 3 replicas on a
    // cluster just formed may take more than the default 5 s); its requests keep the default 5 s.
    const kv = await openKvBucket(nc, bucket, { history: 1, replicas }, 5_000);
    return new JobStore(kv, nc.jetstream(), bucket);
  }

  /**
   * Writes `key` over `revision` (0: a new key), or fails with a conflict when another writer did
   * first. The revision header alone does not serialize writers on a replicated stream of
   * nats-server before 2.9.21 (nats-server#4320: its check is made before consensus, so two
   * writers at one revision may both be accepted; 117 of 200 rounds of three on 2.9.10 at R3).
   * The message id names the revision written over: the stream leader drops the second writer's
   * message as a duplicate (2.9), or refuses it while the first is being stored (2.10 and later:
   * `duplicate message id is in process`), and either is a conflict too.
   */
  private async put(key: string, value: Uint8Array, revision: number): Promise<number> {
    const h = headers();
    h.set('Nats-Expected-Last-Subject-Sequence', String(revision));
    h.set('Nats-Msg-Id', `${key}@${revision}`);
    const ack = await this.js.publish(`$KV.${this.bucket}.${key}`, value, { headers: h });
    if (ack.duplicate) throw new WriteConflict(`${key} was written over revision ${revision} by another writer`);
    return ack.seq;
  }

  /** Creates `key`, or writes it over its deletion (retention); a conflict when it exists. */
  private async create(key: string, value: Uint8Array): Promise<number> {
    try {
      return await this.put(key, value, 0);
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
      const entry = await this.kv.get(key);
      if (!entry || entry.operation === 'PUT') throw error;
      return this.put(key, value, entry.revision);
    }
  }

  /** Creates the job of this event for this webhook, or answers the one that exists (at least once, no duplicate). */
  async enqueue(fields: NewJob): Promise<StoredJob> {
    const id = await this.markerRevision(eventKey(fields.webhook_id, fields.args.id));
    const job: Job = { id, ...fields };
    try {
      return { job, revision: await this.create(jobKey(id), codec.encode(job)) };
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
      return (await this.get(id)) ?? { job, revision: 0 };
    }
  }

  private async markerRevision(key: string): Promise<number> {
    try {
      return await this.create(key, new Uint8Array());
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
      const entry = await this.kv.get(key);
      if (!entry) throw error;
      return entry.revision;
    }
  }

  async get(id: number): Promise<StoredJob | null> {
    const entry = await this.kv.get(jobKey(id));
    return entry && entry.operation === 'PUT' ? { job: entry.json<Job>(), revision: entry.revision } : null;
  }

  /**
   * Applies a command to the job with compare-and-set, retrying on a concurrent change. Answers
   * null for an unknown job, and whether the command changed anything. Given the job as last
   * seen (`known`), the first attempt writes on it without reading; a stale one costs a retry.
   */
  async transition(
    id: number,
    command: JobCommand,
    known?: StoredJob | null,
  ): Promise<(StoredJob & { changed: boolean }) | null> {
    for (let attempt = 0; ; attempt++) {
      const current = attempt === 0 && known ? known : await this.get(id);
      if (!current) return null;
      const events = jobDecider.decide(command, current.job);
      if (events.length === 0) return { ...current, changed: false };
      const next = events.reduce(jobDecider.evolve, current.job) as Job;
      try {
        return { job: next, revision: await this.put(jobKey(id), codec.encode(next), current.revision), changed: true };
      } catch (error) {
        if (!isWrongLastSequence(error) || attempt >= 20) throw error;
      }
    }
  }

  /** Deletes a final job and its event marker (retention). */
  async remove(job: Job, revision: number): Promise<void> {
    try {
      await this.kv.delete(jobKey(job.id), { previousSeq: revision });
    } catch (error) {
      if (!isWrongLastSequence(error)) throw error;
      return;
    }
    await this.kv.delete(eventKey(job.webhook_id, job.args.id));
  }

  /**
   * Every job, then every change, for the replica's in-memory index: its id and revision, and how
   * to read it (null for a deletion), decoded only when asked (a replica knows its own writes).
   */
  async watch(
    onChange: (id: number, revision: number, read: () => StoredJob | null) => void,
    onReady: () => void,
  ): Promise<{ stop(): void }> {
    const watcher = await this.kv.watch({ key: 'job.>', initializedFn: onReady });
    void (async () => {
      for await (const entry of watcher)
        onChange(idOf(entry), entry.revision, () =>
          entry.operation === 'PUT' ? { job: entry.json<Job>(), revision: entry.revision } : null,
        );
    })();
    return { stop: () => watcher.stop() };
  }
}

const idOf = (entry: KvEntry) => Number(entry.key.slice('job.'.length));
