import type { Socket } from 'node:net';
import type buildConnector from 'undici/types/connector';
import { publicConnectionsOnly } from './sender';
import { blockedTargetMessage, hostOf, isBlockedAddress, targetUrlProblem } from '@sesame/platform/http';

describe('webhook target addresses', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd00::1', true],
    ['::ffff:127.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['2606:4700::1111', false],
  ])('%s blocked: %s', (address, expected) => {
    expect(isBlockedAddress(address)).toBe(expected);
  });

  // Regression (issue 16, defect 15): IPv4-compatible IPv6 (`::/96`) reached loopback and private
  // addresses; the other special-purpose ranges of the IANA registries are checked here too.
  it.each([
    ['IPv4-compatible loopback', '::7f00:1'],
    ['IPv4-compatible loopback, dotted', '::127.0.0.1'],
    ['IPv4-compatible private', '::a00:1'],
    ['IPv4-compatible public (deprecated form)', '::808:808'],
    ['IPv4-mapped loopback, hexadecimal', '::ffff:7f00:1'],
    ['IPv4-mapped private', '::ffff:192.168.0.1'],
    ['IPv4-translated (SIIT)', '::ffff:0:7f00:1'],
    ['NAT64 well-known prefix', '64:ff9b::7f00:1'],
    ['NAT64 of a public address', '64:ff9b::808:808'],
    ['NAT64 local-use prefix', '64:ff9b:1::1'],
    ['6to4 embedding loopback', '2002:7f00:1::1'],
    ['6to4 embedding a private address', '2002:c0a8:101::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['benchmarking', '2001:2::1'],
    ['ORCHID', '2001:10::1'],
    ['IPv6 documentation', '2001:db8::1'],
    ['IPv6 documentation (3fff::/20)', '3fff::1'],
    ['discard-only', '100::1'],
    ['site-local (deprecated)', 'fec0::1'],
    ['unspecified', '::'],
    ['multicast', 'ff02::1'],
    ['SRv6 SIDs', '5f00::1'],
    ['unallocated outside 2000::/3', '4000::1'],
    ['CGNAT (shared)', '100.127.255.254'],
    ['this host', '0.1.2.3'],
    ['IETF protocol assignments', '192.0.0.8'],
    ['TEST-NET-1', '192.0.2.1'],
    ['TEST-NET-2', '198.51.100.1'],
    ['TEST-NET-3', '203.0.113.1'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['benchmarking (IPv4)', '198.19.0.1'],
    ['multicast (IPv4)', '239.255.255.250'],
    ['reserved', '250.0.0.1'],
    ['broadcast', '255.255.255.255'],
    ['not an address', 'localhost'],
  ])('blocks %s (%s)', (_case, address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['6to4 of a public address', '2002:808:808::1'],
    ['global unicast', '2a00:1450:4007:80e::200e'],
    ['AS112 (globally reachable)', '192.31.196.1'],
  ])('lets %s through (%s)', (_case, address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  // The URL parser turns odd spellings into canonical addresses before they are checked.
  it.each([
    ['decimal IPv4', 'https://2130706433/in', '127.0.0.1'],
    ['hexadecimal IPv4', 'https://0x7f000001/in', '127.0.0.1'],
    ['octal IPv4', 'https://0177.0.0.1/in', '127.0.0.1'],
    ['short IPv4', 'https://127.1/in', '127.0.0.1'],
    ['mixed IPv4', 'https://0xa.0.0.01/in', '10.0.0.1'],
    ['percent-encoded IPv4', 'https://%31%32%37.0.0.1/in', '127.0.0.1'],
    ['trailing dot', 'https://127.0.0.1./in', '127.0.0.1'],
    ['IPv4-mapped, dotted', 'https://[::ffff:127.0.0.1]/in', '::ffff:7f00:1'],
    ['IPv4-compatible, dotted', 'https://[::127.0.0.1]/in', '::7f00:1'],
    ['IPv6 in full', 'https://[0:0:0:0:0:0:0:1]/in', '::1'],
  ])('refuses %s in production (%s)', async (_case, url, canonical) => {
    expect(hostOf(url)).toBe(canonical);
    await expect(targetUrlProblem(url, true, async () => ['8.8.8.8'])).resolves.toBe(blockedTargetMessage);
  });

  it('allows any http(s) target outside production', async () => {
    await expect(targetUrlProblem('http://127.0.0.1:9000/hook', false)).resolves.toBeNull();
  });

  it('in production: https only, and every resolved address must be public', async () => {
    const resolve = async (host: string) => (host === 'internal.example.com' ? ['8.8.8.8', '10.0.0.7'] : ['8.8.8.8']);
    await expect(targetUrlProblem('http://hooks.example.com/in', true, resolve)).resolves.toBe('must use https in production');
    await expect(targetUrlProblem('https://hooks.example.com/in', true, resolve)).resolves.toBeNull();
    await expect(targetUrlProblem('https://internal.example.com/in', true, resolve)).resolves.toBe(blockedTargetMessage);
    await expect(targetUrlProblem('https://127.0.0.1/in', true, resolve)).resolves.toBe(blockedTargetMessage);
    await expect(targetUrlProblem('https://[::1]/in', true, resolve)).resolves.toBe(blockedTargetMessage);
    await expect(targetUrlProblem('https://mapped.example.com/in', true, async () => ['::7f00:1'])).resolves.toBe(
      blockedTargetMessage,
    );
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(targetUrlProblem('https://nowhere.invalid/in', true, failing)).resolves.toBe('cannot be resolved');
  });

  it('hands over a connection only when the address it reached is public', async () => {
    const connectedTo = (remoteAddress: string) => {
      const socket = { remoteAddress, destroyed: false, destroy: () => void (socket.destroyed = true) };
      const connect: buildConnector.connector = (_options, callback) => callback(null, socket as unknown as Socket);
      return { socket, connect };
    };
    const options = { hostname: 'hooks.example.com', protocol: 'https:', port: '443' };
    const attempt = (connect: buildConnector.connector) =>
      new Promise<{ error: Error | null; socket: unknown }>((resolve) =>
        publicConnectionsOnly(connect)(options, (error, socket) => resolve({ error, socket })),
      );
    const internal = connectedTo('::ffff:10.0.0.7');
    expect(await attempt(internal.connect)).toEqual({
      error: expect.objectContaining({ message: 'target address ::ffff:10.0.0.7 is not public', code: 'EREFUSEDTARGET' }),
      socket: null,
    });
    expect(internal.socket.destroyed).toBe(true);
    const external = connectedTo('93.184.216.34');
    expect(await attempt(external.connect)).toEqual({ error: null, socket: external.socket });
    expect(external.socket.destroyed).toBe(false);
  });
});
