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
    const release = async () => {
      await this.kv.delete(key, { previousSeq: revision }).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'idempotency key not released; a retry may take it over after the takeover delay');
      });
    };
    return {
      ticket,
      release,
      settle: async ({ answerStored, ...answer }) => {
        if (answerStored) return;
        if (!isKeptAnswer(answer)) return release();
        const record: IdempotencyRecord = { state: 'done', fingerprint, answer };
        await this.kv.update(key, JSON.stringify(record), revision).catch(async (error: unknown) => {
          this.logger.warn({ err: error }, 'idempotent answer not stored; freeing its key');
          await release();
        });
      },
    };
  }
}
