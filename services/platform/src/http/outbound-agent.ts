import { Agent, buildConnector, Client } from 'undici';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { authorityOf, proxyFor, proxySettings } from './outbound-proxy';
import type { ProxySettings } from './outbound-proxy';

export interface OutboundOptions {
  /** Connect timeout, to the target or the proxy, including the proxy's answer to CONNECT (ms). */
  connectTimeoutMs: number;
  /** Proxy settings (default: from HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  proxies?: ProxySettings;
  /** Opens direct connections (default: undici's connector); e.g. one that refuses some addresses. */
  direct?: buildConnector.connector;
  /**
   * Where the proxy tunnels to for a host name (default: the name, resolved by the proxy). A guard
   * resolves and checks it here and answers the address, so that the proxy reaches what was checked.
   */
  tunnelHost?: (hostname: string) => Promise<string>;
}

/** A proxy's refusal of a tunnel. It does not name the proxy: a webhook attempt's error is shown to API callers. */
export class ProxyTunnelError extends Error {
  constructor(authority: string, status: number) {
    super(`the outbound proxy answered ${status} to CONNECT ${authority}`);
    this.name = 'ProxyTunnelError';
  }
}

function proxyAuthorization(proxy: URL): Record<string, string> {
  if (!proxy.username) return {};
  const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}

/**
 * A connector honouring HTTPS_PROXY, HTTP_PROXY and NO_PROXY: a target NO_PROXY names (or any target
 * when no proxy is set) is connected to directly; any other is reached through an HTTP CONNECT tunnel
 * of its proxy (for https:// and http:// targets alike), with TLS to the target inside the tunnel.
 */
export function outboundConnector(options: OutboundOptions): buildConnector.connector {
  const proxies = options.proxies ?? proxySettings();
  const direct = options.direct ?? buildConnector({ timeout: options.connectTimeoutMs });
  const overTunnel = buildConnector({ timeout: options.connectTimeoutMs });

  // One proxy client per tunnel: CONNECT hands its connection over, and the tunnel then lives as long
  // as the Agent keeps the connection to the target.
  const tunnel = async (proxy: URL, target: buildConnector.Options): Promise<Socket> => {
    const host = options.tunnelHost ? await options.tunnelHost(target.hostname.replace(/^\[|\]$/g, '')) : target.hostname;
    const authority = authorityOf(host, target.port, target.protocol);
    const client = new Client(proxy.origin, { connect: { timeout: options.connectTimeoutMs } });
    try {
      const { statusCode, socket } = await client.connect({
        path: authority,
        headers: { host: authority, ...proxyAuthorization(proxy) },
        signal: AbortSignal.timeout(options.connectTimeoutMs),
      });
      if (statusCode !== 200) {
        socket.destroy();
        throw new ProxyTunnelError(authority, statusCode);
      }
      return socket as Duplex as Socket;
    } finally {
      void client.close();
    }
  };

  return (target, callback) => {
    const proxy = proxyFor(target, proxies);
    if (!proxy) return direct(target, callback);
    tunnel(proxy, target).then(
      (socket) => {
        if (target.protocol !== 'https:') return callback(null, socket);
        overTunnel({ ...target, httpSocket: socket }, callback);
      },
      (error: Error) => callback(error, null),
    );
  };
}

/** An undici Agent for outbound HTTP (webhooks, breached-password lookups, SMS) through {@link outboundConnector}. */
export function outboundAgent(options: OutboundOptions & Omit<Agent.Options, 'connect'>): Agent {
  const { connectTimeoutMs, proxies, direct, tunnelHost, ...agentOptions } = options;
  return new Agent({ ...agentOptions, connect: outboundConnector({ connectTimeoutMs, proxies, direct, tunnelHost }) });
}
