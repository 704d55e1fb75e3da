import { isIP } from 'node:net';

/**
 * The outbound HTTP proxy settings of a process, from the conventional variables (as curl and undici's
 * EnvHttpProxyAgent read them; the lower-case name wins): `https_proxy`/`HTTPS_PROXY` for https://
 * targets (else the http one), `http_proxy`/`HTTP_PROXY` for http:// targets, and `no_proxy`/`NO_PROXY`,
 * the hosts reached directly.
 */
export interface ProxySettings {
  httpsProxy: URL | null;
  httpProxy: URL | null;
  noProxy: NoProxyEntry[];
}

/** One NO_PROXY entry: `*` (every host), a host name or IP address (with its subdomains unless it starts with a dot), with an optional port. */
export interface NoProxyEntry {
  host: string;
  port: number | null;
  subdomainsOnly: boolean;
}

/** A target as undici's connector sees it. */
export interface ProxyTarget {
  protocol: string;
  hostname: string;
  port: string | number;
}

const variable = (env: NodeJS.ProcessEnv, name: string) => env[name.toLowerCase()] || env[name.toUpperCase()] || '';

function proxyUrl(env: NodeJS.ProcessEnv, name: string): URL | null {
  const text = variable(env, name).trim();
  if (!text) return null;
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${name.toUpperCase()}: only http:// and https:// proxies are supported, not ${url.protocol}`);
  return url;
}

/** `[::1]` → `::1`; host names in lower case, without a trailing dot. */
const bareHost = (host: string) =>
  host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

function parseNoProxyEntry(text: string): NoProxyEntry {
  if (text === '*') return { host: '*', port: null, subdomainsOnly: false };
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const [host, port] = bracketed
    ? [bracketed[1] as string, bracketed[2]]
    : isIP(text)
      ? [text, undefined]
      : (text.split(':') as [string, string | undefined]);
  const subdomainsOnly = host.startsWith('.') || host.startsWith('*.');
  return { host: bareHost(host.replace(/^\*?\./, '')), port: port ? Number(port) : null, subdomainsOnly };
}

export function proxySettings(env: NodeJS.ProcessEnv = process.env): ProxySettings {
  const noProxy = variable(env, 'no_proxy')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(parseNoProxyEntry);
  return { httpsProxy: proxyUrl(env, 'https_proxy'), httpProxy: proxyUrl(env, 'http_proxy'), noProxy };
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80);

function bypasses(entry: NoProxyEntry, host: string, port: number): boolean {
  if (entry.host === '*') return true;
  if (entry.port !== null && entry.port !== port) return false;
  if (host === entry.host) return !entry.subdomainsOnly;
  return isIP(host) === 0 && host.endsWith(`.${entry.host}`);
}

/** The proxy a request to `target` goes through, or null when it goes directly (no proxy, or NO_PROXY names it). */
export function proxyFor(target: ProxyTarget, settings: ProxySettings): URL | null {
  const proxy = target.protocol === 'https:' ? (settings.httpsProxy ?? settings.httpProxy) : settings.httpProxy;
  if (!proxy) return null;
  const host = bareHost(target.hostname);
  const port = Number(target.port) || defaultPort(target.protocol);
  return settings.noProxy.some((entry) => bypasses(entry, host, port)) ? null : proxy;
}

/** `host:port` of a CONNECT request (IPv6 addresses in brackets). */
export function authorityOf(host: string, port: string | number, protocol: string): string {
  const bare = bareHost(host);
  return `${isIP(bare) === 6 ? `[${bare}]` : bare}:${Number(port) || defaultPort(protocol)}`;
}
