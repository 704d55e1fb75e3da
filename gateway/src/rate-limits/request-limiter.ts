import { catalogueError, errorCatalogue, oauthError, scimError } from '@sesame/contracts';
import type { AppError, Operation, RpcInput } from '@sesame/contracts';
import type { Logger, Metrics, RateDecision, RateLimit } from '@sesame/platform';
import { ApiError } from '../http/api-error';
import type { RateLimitBudgets } from './rate-limit-config';
import { rateLimitKey } from './rate-limit-keys';
import type { RequestIdentity } from './rate-limit-keys';

/** Where the counters live (the JetStream key-value bucket in production). */
export interface RateLimitStore {
  take(name: string, key: string, budget: RateLimit): Promise<RateDecision>;
}

const message = errorCatalogue.rate_limited.message;

/** The 429 of a refused request in its operation's error style, with `Retry-After` in whole seconds. */
export function rateLimitedError(operation: Operation, retryAfterMs: number): ApiError {
  const headers = { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1_000))) };
  const error: AppError =
    operation.errorStyle === 'oauth'
      ? oauthError('slow_down', message)
      : operation.errorStyle === 'scim'
        ? scimError(429, message)
        : catalogueError('rate_limited');
  return new ApiError(error, headers);
}

const errorLogIntervalMs = 10_000;

/**
 * Spends a request from each budget of its operation, in order, and refuses it (429) at the first
 * one that is used up. When the counters cannot be read or written (NATS key-value unavailable or
 * slow), the request goes through: the limits fail open, logged and counted (README, "Rate limits").
 */
export class RequestLimiter {
  private lastErrorLogAt = 0;

  constructor(
    private readonly store: RateLimitStore,
    private readonly budgets: RateLimitBudgets,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  async enforce(operation: Operation, identity: RequestIdentity, input: RpcInput): Promise<void> {
    for (const rule of operation.rateLimits ?? []) {
      const budget = this.budgets[rule.limit];
      const key = budget && rateLimitKey(rule, identity, input);
      if (!budget || !key) continue;
      const decision = await this.take(rule.limit, key, budget);
      this.metrics.rateLimitDecisions.inc({
        limit: rule.limit,
        outcome: decision ? (decision.allowed ? 'allowed' : 'refused') : 'error',
      });
      if (decision && !decision.allowed) throw rateLimitedError(operation, decision.retryAfterMs);
    }
  }

  private async take(name: string, key: string, budget: RateLimit): Promise<RateDecision | null> {
    try {
      return await this.store.take(name, key, budget);
    } catch (error) {
      if (Date.now() - this.lastErrorLogAt >= errorLogIntervalMs) {
        this.lastErrorLogAt = Date.now();
        this.logger.error({ err: error, limit: name }, 'rate-limit counters unavailable: letting requests through');
      }
      return null;
    }
  }
}
