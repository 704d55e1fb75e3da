import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, link-local, private, shared, reserved and multicast ranges (IPv4 and IPv6). */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address may not receive webhooks in production (IPv4-mapped IPv6 included). */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1] as string, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export const blockedTargetMessage = 'must not resolve to a loopback, link-local or private address';

export type Resolve = (hostname: string) => Promise<string[]>;
export const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * Why `url` cannot receive deliveries, or null. In production: https only, and every address the
 * host resolves to must be public (checked again at each connection, against DNS rebinding).
 */
export async function targetUrlProblem(url: string, production: boolean, resolve: Resolve = resolveAll): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return 'must not contain credentials';
  if (!production) return null;
  if (parsed.protocol !== 'https:') return 'must use https in production';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return 'cannot be resolved';
  }
  return addresses.length === 0 || addresses.some(isBlockedAddress) ? blockedTargetMessage : null;
}
