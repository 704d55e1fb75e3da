import { createHash } from 'node:crypto';
import { connect } from 'nats';
import type { ConnectionOptions, KV, KvEntry, NatsConnection } from 'nats';
import { openKvBucket } from '../messaging/kv-buckets';
import { isJetStreamWriteConflict } from '../messaging/jetstream-errors';
import { decideRate, windowIndex } from './sliding-window';
import type { RateDecision, RateLimit } from './sliding-window';

/**
 * Compare-and-set attempts on one counter. Each round of concurrent requests on one key lets one
 * of them count; one still losing after this many rounds has read a count below the budget each
 * time and is let through uncounted (a burst far below its budget, an Okta push say, must not be
 * refused; against a small budget the others' counts reach it first and refuse it).
 */
const maxAttempts = 10;
const backoff = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));

const countOf = (entry: KvEntry | null) => (entry && entry.operation === 'PUT' ? Number(entry.string()) || 0 : 0);

export interface KvRateLimiterOptions {
  replicas: number;
  /** Longest window of any budget; counters expire after twice that. */
  maxWindowMs: number;
  /** Timeout of each key-value request (not of the bucket's creation at the start: `openKvBucket`). */
  timeoutMs: number;
}

/**
 * Request budgets shared by every replica: one counter per budget, key and window in a JetStream
 * key-value bucket (`<prefix>_rate_limits`), incremented with compare-and-set on the entry's
 * revision, so concurrent requests on two replicas cannot both spend the last unit. Entries expire
 * with the bucket's age limit. Keys are hashed: no email or token is stored.
 */
export class KvRateLimiter {
  private constructor(
    private readonly kv: KV,
    private readonly nc: NatsConnection | null,
  ) {}

  /** On its own connection (closed by `close`), with the process's NATS connection options. */
  static async connect(nats: ConnectionOptions, prefix: string, options: KvRateLimiterOptions): Promise<KvRateLimiter> {
    const nc = await connect(nats);
    try {
      return new KvRateLimiter(await KvRateLimiter.bucket(nc, prefix, options), nc);
    } catch (error) {
      await nc.close();
      throw error;
    }
  }

  /** On a connection the caller owns. */
  static async open(nc: NatsConnection, prefix: string, options: KvRateLimiterOptions): Promise<KvRateLimiter> {
    return new KvRateLimiter(await KvRateLimiter.bucket(nc, prefix, options), null);
  }

  private static bucket(nc: NatsConnection, prefix: string, options: KvRateLimiterOptions): Promise<KV> {
    const bucket = { history: 1, replicas: options.replicas, ttl: 2 * options.maxWindowMs };
    return openKvBucket(nc, `${prefix}_rate_limits`, bucket, options.timeoutMs);
  }

  async close(): Promise<void> {
    await this.nc?.close();
  }

  /** Spends one request of `budget` for `key` (e.g. `password_ip` and an address), or answers how long to wait. */
  async take(name: string, key: string, budget: RateLimit, now = Date.now()): Promise<RateDecision> {
    const index = windowIndex(now, budget.windowMs);
    const hashed = createHash('sha256').update(key).digest('base64url').slice(0, 32);
    const counter = (window: number) => `${name}.${budget.windowMs}.${window}.${hashed}`;
    let decision: RateDecision = { allowed: true };
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const [previous, current] = await Promise.all([this.kv.get(counter(index - 1)), this.kv.get(counter(index))]);
      decision = decideRate(budget, { previous: countOf(previous), current: countOf(current) }, now);
      if (!decision.allowed) return decision;
      const next = String(countOf(current) + 1);
      try {
        if (current) await this.kv.update(counter(index), next, current.revision);
        else await this.kv.create(counter(index), next);
        return decision;
      } catch (error) {
        if (!isJetStreamWriteConflict(error)) throw error;
      }
      await backoff(attempt);
    }
    return decision;
  }
}
