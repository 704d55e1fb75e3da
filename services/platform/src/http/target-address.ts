import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges of the IANA special-purpose registry that are not globally reachable, plus the
 * documentation and benchmarking ranges and the deprecated 6to4 relay anycast: this host,
 * private, shared (CGNAT), loopback, link-local, IETF protocol assignments, documentation
 * (TEST-NET-1, 2, 3), 6to4 relays, benchmarking, multicast, reserved and broadcast.
 */
const blockedIpv4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blockedIpv4.addSubnet(network, prefix, 'ipv4');

/** IPv6 targets must be global unicast (`2000::/3`): everything else is loopback, mapped, NAT64, discard, ULA, link-local, multicast... */
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/**
 * Inside global unicast, what the IANA registry marks not globally reachable, or which tunnels to
 * an IPv4 address of its choosing: IETF protocol assignments (Teredo `2001::/32`, benchmarking,
 * ORCHID), documentation (`2001:db8::/32`, `3fff::/20`). 6to4 (`2002::/16`) is judged by the IPv4
 * address it embeds.
 */
const blockedIpv6 = new BlockList();
for (const [network, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const)
  blockedIpv6.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = (dotted[1] as string).split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/** The IPv4 address an IPv4-mapped (`::ffff:0:0/96`) or 6to4 (`2002::/16`) address carries, or null. */
function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return ipv4Of(groups[6] as number, groups[7] as number);
  if (groups[0] === 0x2002) return ipv4Of(groups[1] as number, groups[2] as number);
  return null;
}

/**
 * Whether an IP address may not receive webhooks in production. `address` is what a resolver
 * or a URL parser gives (WHATWG URLs already turn `2130706433`, `0177.0.0.1`, `0x7f.1` and
 * `[::ffff:127.0.0.1]` into canonical forms); anything that is not an IP address is blocked.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedIpv4.check(address, 'ipv4');
  if (family !== 6) return true;
  const ipv4 = embeddedIpv4(address);
  if (ipv4 !== null) return blockedIpv4.check(ipv4, 'ipv4');
  return !globalUnicast.check(address, 'ipv6') || blockedIpv6.check(address, 'ipv6');
}

export const blockedTargetMessage = 'must not resolve to a loopback, link-local or private address';

export type Resolve = (hostname: string) => Promise<string[]>;
export const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((entry) => entry.address);

/** The host of a URL as an address or a name (`[::1]` → `::1`), in the form the URL parser normalized it to. */
export const hostOf = (url: string) => new URL(url).hostname.replace(/^\[|\]$/g, '');

/**
 * Why `url` cannot receive deliveries, or null. In production: https only, and every address the
 * host resolves to must be public (checked again at each connection, against DNS rebinding).
 */
export async function targetUrlProblem(url: string, production: boolean, resolve: Resolve = resolveAll): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return 'must not contain credentials';
  if (!production) return null;
  if (parsed.protocol !== 'https:') return 'must use https in production';
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return 'cannot be resolved';
  }
  return addresses.length === 0 || addresses.some(isBlockedAddress) ? blockedTargetMessage : null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for Node's `http.request` that refuses a host resolving to any loopback, link-local or
 * private address (checked at each connection, against DNS rebinding). IP literals do not go
 * through a lookup: check those with `isBlockedAddress` before the request.
 */
export function publicOnlyLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  lookup(hostname, { all: true, ...(options.family ? { family: options.family } : {}) }).then(
    (entries) => {
      if (entries.length === 0 || entries.some((entry) => isBlockedAddress(entry.address)))
        return callback(Object.assign(new Error(`${hostname} ${blockedTargetMessage}`), { code: 'EBLOCKED' }), []);
      if (options.all) return callback(null, entries);
      const [first] = entries as [{ address: string; family: number }];
      callback(null, first.address, first.family);
    },
    (error: NodeJS.ErrnoException) => callback(error, []),
  );
}
