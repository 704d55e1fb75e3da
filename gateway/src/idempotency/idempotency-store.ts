import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'nats';
import type { ConnectionOptions, KV, NatsConnection } from 'nats';
import { idempotencyBucket, idempotencyKeyTtlSeconds, isKeptAnswer } from '@sesame/contracts';
import type { IdempotencyRecord, IdempotencyTicket, RpcReply } from '@sesame/contracts';
import type { Logger } from '@sesame/platform';
import { isJetStreamWriteConflict, openKvBucket } from '@sesame/platform/messaging';
import { decideIdempotency } from './idempotency-decision';
import type { StoredRecord } from './idempotency-decision';

/** Rounds of read-then-write lost to a concurrent writer before giving up (each loss means another request moved first). */
const maxAttempts = 5;

export interface IdempotencyStoreOptions {
  replicas: number;
  /** Timeout of each key-value request (not of the bucket's creation at the start: `openKvBucket`). */
  timeoutMs: number;
  /** An in-flight record older than this belongs to a gateway that died: a retry may claim it. */
  takeoverAfterMs: number;
}

/** The pauses between attempts at a write the store did not take: from 250 ms, doubling, at most 2 s. */
const nextPause = (pause: number) => Math.min(pause * 2, 2_000);

/**
 * A key this gateway holds: its `ticket` goes with the request (the service stores its answer under
 * it); `settle` stores the answer when the service did not, or frees the key when it is not to be kept.
 */
export interface Claim {
  ticket: IdempotencyTicket;
  settle(answer: RpcReply): Promise<void>;
  release(): Promise<void>;
}

export type Opening =
  { outcome: 'claimed'; claim: Claim } | { outcome: 'replay'; answer: RpcReply } | { outcome: 'reused' | 'in_progress' };

/**
 * Keys of idempotent requests and their answers, shared by every gateway replica: a JetStream
 * key-value bucket (`<prefix>_idempotency`) whose entries expire 24 hours after their last write.
 * A key is claimed with an atomic `create` (one of concurrent duplicates wins), its answer stored
 * with `update` at the claim's revision.
 */
export class IdempotencyStore {
  private closed = false;

  private constructor(
    private readonly kv: KV,
    private readonly nc: NatsConnection,
    private readonly options: IdempotencyStoreOptions,
    private readonly logger: Logger,
  ) {}

  static async connect(nats: ConnectionOptions, prefix: string, options: IdempotencyStoreOptions, logger: Logger) {
    const nc = await connect(nats);
    try {
      const bucket = { history: 1, replicas: options.replicas, ttl: idempotencyKeyTtlSeconds * 1_000 };
      const kv = await openKvBucket(nc, idempotencyBucket(prefix), bucket, options.timeoutMs);
      return new IdempotencyStore(kv, nc, options, logger);
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.nc.close();
  }

  /** Claims `key` for the request `fingerprint` to `subject`, or answers what the record already there says. */
  async open(key: string, fingerprint: string, subject: string): Promise<Opening> {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const decision = decideIdempotency(await this.read(key), fingerprint, Date.now(), this.options.takeoverAfterMs);
      if (decision.action === 'replay') return { outcome: 'replay', answer: decision.answer };
      if (decision.action === 'reused' || decision.action === 'in_progress') return { outcome: decision.action };
      const record: IdempotencyRecord = { state: 'in_flight', fingerprint, claimed_at: Date.now() };
      try {
        const revision =
          decision.action === 'claim'
            ? await this.kv.create(key, JSON.stringify(record))
            : await this.kv.update(key, JSON.stringify(record), decision.revision);
        return { outcome: 'claimed', claim: this.claimOf({ key, fingerprint, revision, subject }) };
      } catch (error) {
        if (!isJetStreamWriteConflict(error)) throw error;
      }
    }
    return { outcome: 'in_progress' };
  }

  private async read(key: string): Promise<StoredRecord | null> {
    const entry = await this.kv.get(key);
    if (!entry || entry.operation !== 'PUT') return null;
    return { record: entry.json<IdempotencyRecord>(), revision: entry.revision };
  }

  private claimOf(ticket: IdempotencyTicket): Claim {
    const { key, fingerprint, revision } = ticket;
    const release = () => this.persist('idempotency key not released', () => this.kv.delete(key, { previousSeq: revision }));
    return {
      ticket,
      release,
      settle: async ({ answerStored, ...answer }) => {
        if (answerStored) return;
        if (!isKeptAnswer(answer)) return release();
        const record: IdempotencyRecord = { state: 'done', fingerprint, answer };
        await this.persist('idempotent answer not stored', () => this.kv.update(key, JSON.stringify(record), revision));
      },
    };
  }

  /**
   * A write to a claimed key (its answer, or freeing it), at the claim's revision. The first attempt
   * is awaited; when the store does not take it (a leader being elected takes seconds), it is tried
   * again in the background until half the takeover delay has passed, so the answer the client got
   * is kept rather than lost and worked out again by its retry. A write conflict ends it: the key
   * moved on (the service's own write of the answer landed after all, or another request took it over).
   */
  private async persist(what: string, write: () => Promise<unknown>): Promise<void> {
    const deadline = Date.now() + this.options.takeoverAfterMs / 2;
    let lastError: unknown;
    const attempt = async () => {
      try {
        await write();
        return true;
      } catch (error) {
        lastError = error;
        return isJetStreamWriteConflict(error);
      }
    };
    if (await attempt()) return;
    void (async () => {
      for (let pause = 250; !this.closed && Date.now() + pause < deadline; pause = nextPause(pause)) {
        await sleep(pause, undefined, { ref: false });
        if (!this.closed && (await attempt())) return;
      }
      this.logger.warn({ err: lastError }, `${what}; a retry may take the key over after the takeover delay`);
    })();
  }
}
