import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import { buildConnector, request } from 'undici';
import type { Agent } from 'undici';
import { outboundAgent } from '@sesame/platform/http';
import type { ProxySettings } from '@sesame/platform/http';
import type { AttemptOutcome } from '../jobs/domain/job.decider';
import { hostOf, isBlockedAddress } from '@sesame/platform/http';

export interface SenderOptions {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  /** Production: refuse connections to loopback, link-local and private addresses. */
  publicOnly: boolean;
  /** Bytes of a receiver's answer read at most (the rest is discarded). */
  maxResponseBytes?: number;
  /** Name resolution (node's `dns.lookup`; tests answer what a rebinding DNS server would). */
  lookup?: Lookup;
  /** Outbound proxy (default: HTTPS_PROXY, HTTP_PROXY and NO_PROXY of the process). */
  proxies?: ProxySettings;
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
export type Lookup = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const notPublic = (address: string) =>
  Object.assign(new Error(`target address ${address} is not public`), { code: 'EREFUSEDTARGET' });

/** Name resolution that refuses a name with any non-public address, at connection time (no DNS rebinding past the check at creation). */
function publicLookup(lookup: Lookup) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => isBlockedAddress(entry.address));
      if (refused || addresses.length === 0) return callback(notPublic(refused?.address ?? 'none'), []);
      const first = addresses[0] as LookupAddress;
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * The address a proxy tunnels to for a host name: resolved here and public (all of its addresses), so
 * that the proxy reaches the address checked and never resolves the name itself (no rebinding, no
 * other view of DNS behind the proxy).
 */
function publicAddress(lookup: Lookup) {
  const resolve = publicLookup(lookup);
  return (hostname: string) =>
    new Promise<string>((resolved, rejected) =>
      resolve(hostname, {}, (error, address) => (error ? rejected(error) : resolved(address as string))),
    );
}

/**
 * A connector that hands over a connection only when the address it actually reached is public
 * (whatever named it: an IP address in the URL in any of its spellings, a resolver's answer).
 */
export function publicConnectionsOnly(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (error) return callback(error, null);
      const address = (socket as Socket).remoteAddress ?? 'none';
      if (!isBlockedAddress(address)) return callback(null, socket as Socket);
      (socket as Socket).destroy();
      callback(notPublic(address), null);
    });
}

/**
 * Sends deliveries with undici: connect and response timeouts, no redirect followed (a 3xx is a
 * failure), the answer's body capped and discarded, and in production only public addresses. Through
 * HTTPS_PROXY (HTTP_PROXY) unless NO_PROXY names the target: in production the target is then checked
 * all the same, and the proxy tunnels to the very address checked.
 */
export class Sender {
  private readonly agent: Agent;

  constructor(private readonly options: SenderOptions) {
    const lookup = options.lookup ?? (dnsLookup as Lookup);
    this.agent = outboundAgent({
      connectTimeoutMs: options.connectTimeoutMs,
      proxies: options.proxies,
      ...(options.publicOnly && {
        direct: publicConnectionsOnly(buildConnector({ timeout: options.connectTimeoutMs, lookup: publicLookup(lookup) })),
        tunnelHost: publicAddress(lookup),
      }),
      headersTimeout: options.responseTimeoutMs,
      bodyTimeout: options.responseTimeoutMs,
      connections: 64,
    });
  }

  async send(delivery: Delivery): Promise<AttemptOutcome> {
    const host = hostOf(delivery.url);
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
