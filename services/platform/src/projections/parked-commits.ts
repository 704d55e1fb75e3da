import type { KV, NatsConnection } from 'nats';
import { openKvBucket } from '../messaging/kv-buckets';

/**
 * A commit a projection could not apply, set aside so that the projection goes on with the next
 * one. Names the commit, never its payload (which may hold secrets or be what broke the read model).
 */
export interface ParkedCommit {
  service: string;
  /** The projection and its version, as its checkpoint is named (`sso_connections_v1`). */
  read_model: string;
  /** Id, type and stream revision of the commit's first event. */
  event_id: string;
  event_type: string;
  stream: string;
  revision: number;
  /** Global position of the commit in the service's event store. */
  position: string;
  /** Error name and message. */
  error: string;
  parked_at: string;
}

/** Where parked commits are kept for operators: one entry per read model and commit. */
export interface ParkedCommits {
  park(commit: ParkedCommit): Promise<void>;
}

/** Kept in the process (tests, the CLI). */
export class MemoryParkedCommits implements ParkedCommits {
  private readonly commits = new Map<string, ParkedCommit>();

  async park(commit: ParkedCommit): Promise<void> {
    this.commits.set(keyOf(commit), commit);
  }

  async list(): Promise<ParkedCommit[]> {
    return [...this.commits.values()];
  }
}

/**
 * A JetStream key-value bucket shared by every service of a deployment (`<prefix>_parked_commits`),
 * key `<service>.<read model>.<event id>`: `nats kv ls <prefix>_parked_commits` lists them. Parking
 * the same commit again (a rebuild from position 0) overwrites its entry.
 */
export class KvParkedCommits implements ParkedCommits {
  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection, prefix: string, replicas = 1): Promise<KvParkedCommits> {
    // Created under the start's own timeout, as every bucket a service opens at start; its requests keep the default 5 s.
    return new KvParkedCommits(await openKvBucket(nc, `${prefix}_parked_commits`, { history: 1, replicas }, 5_000));
  }

  async park(commit: ParkedCommit): Promise<void> {
    await this.kv.put(keyOf(commit), JSON.stringify(commit));
  }
}

const keyOf = (commit: ParkedCommit) => `${commit.service}.${commit.read_model}.${commit.event_id}`;
