import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import type { AttemptOutcome } from '../jobs/domain/job.decider';
import { isBlockedAddress } from './target-address';

export interface SenderOptions {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Production: refuse connections to loopback, link-local and private addresses. */
  publicOnly: boolean;
  /** Bytes of a receiver's answer read at most (the rest is discarded). */
  maxResponseBytes?: number;
}

export interface Delivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

const maxRetryAfterMs = 86_400_000;

/** `Retry-After` in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const ms = /^\s*\d+\s*$/.test(text) ? Number(text) * 1_000 : Date.parse(text) - now;
  return Number.isNaN(ms) ? null : Math.min(maxRetryAfterMs, Math.max(0, ms));
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** DNS lookup that refuses non-public addresses at connection time (no DNS rebinding past the check). */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => isBlockedAddress(entry.address));
    if (refused || addresses.length === 0)
      return callback(
        Object.assign(new Error(`target address ${refused?.address ?? 'none'} is not public`), { code: 'EREFUSEDTARGET' }),
        [],
      );
    const first = addresses[0] as LookupAddress;
    if (options.all) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
}

/**
 * Sends deliveries with undici: connect and response timeouts, no redirect followed (a 3xx is a
 * failure), the answer's body capped and discarded, and in production only public addresses.
 */
export class Sender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs, ...(options.publicOnly ? { lookup: publicLookup } : {}) },
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
      connections: 64,
    });
  }

  async send(delivery: Delivery): Promise<AttemptOutcome> {
    const host = new URL(delivery.url).hostname.replace(/^\[|\]$/g, '');
    if (this.options.publicOnly && isIP(host) && isBlockedAddress(host))
      return { kind: 'failed', error: `target address ${host} is not public`, retry_after_ms: null };
    try {
      const response = await request(delivery.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'Sesame-Webhooks/1', ...delivery.headers },
        body: delivery.body,
        signal: AbortSignal.timeout(this.options.connectTimeoutMs + this.options.responseTimeoutMs),
      });
      await response.body.dump({ limit: this.options.maxResponseBytes ?? 65_536 }).catch(() => undefined);
      if (response.statusCode >= 200 && response.statusCode < 300) return { kind: 'delivered' };
      return {
        kind: 'failed',
        error: `HTTP ${response.statusCode}`,
        retry_after_ms: parseRetryAfter(response.headers['retry-after'], Date.now()),
      };
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return { kind: 'failed', error: reason, retry_after_ms: null };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
