import { randomUUID } from 'node:crypto';
import { apiErrorOf, readBody } from './errors';
import type { TokenCache } from './token';

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). */
  maxAttempts: number;
  /** Backoff of the first retry when the answer has no `Retry-After` (default 500 ms), doubled at each retry. */
  baseDelayMs: number;
  /** The longest wait before a retry, `Retry-After` included (default 30 s). */
  maxDelayMs: number;
}

export const defaultRetry: RetryOptions = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

export interface CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const retriedStatuses = new Set([429, 503]);

/** The wait a `Retry-After` asks for (seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1_000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** `/users/{id}` with `{ id: 'a b' }` gives `/users/a%20b`; a missing parameter is an error. */
export function expandPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Record<string, unknown> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends the API's calls: bearer token of the API key (fetched again once on a 401), JSON in and
 * out, an `Idempotency-Key` on every POST, bounded retries on 429/503 for the calls that may be
 * repeated (idempotent methods, or a POST with its key), waiting what `Retry-After` asks.
 */
export class Transport {
  constructor(
    readonly baseUrl: string,
    private readonly tokens: TokenCache,
    private readonly retry: RetryOptions = defaultRetry,
  ) {}

  async call(method: string, path: string, options: CallOptions = {}): Promise<unknown> {
    return readBody(await this.send(method, path, options));
  }

  /**
   * The success answer of a call, its body not read yet (a streamed answer is read as it comes):
   * the same token, retries and errors as `call`.
   */
  async send(method: string, path: string, options: CallOptions = {}): Promise<Response> {
    const verb = method.toUpperCase();
    const url = `${this.baseUrl}${expandPath(path, options.params)}${queryString(options.query)}`;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (verb === 'POST') headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const repeatable = idempotentMethods.has(verb) || 'idempotency-key' in headers;
    let refreshedToken = false;
    for (let attempt = 1; ; attempt++) {
      const token = await this.tokens.get();
      const response = await fetch(url, { method: verb, headers: { ...headers, authorization: `Bearer ${token}` }, body });
      if (response.ok) return response;
      const answer = await readBody(response);
      if (response.status === 401 && !refreshedToken) {
        refreshedToken = true;
        this.tokens.invalidate(token);
        attempt--;
        continue;
      }
      if (!repeatable || !retriedStatuses.has(response.status) || attempt >= this.retry.maxAttempts) {
        throw apiErrorOf(response.status, response.headers, answer);
      }
      await sleep(this.delayMs(attempt, response.headers.get('retry-after')));
    }
  }

  private delayMs(attempt: number, retryAfter: string | null): number {
    const asked = retryAfterMs(retryAfter);
    const backoff = this.retry.baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
    return Math.min(asked ?? backoff, this.retry.maxDelayMs);
  }
}
