import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { isIP } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { proxySettings } from '@sesame/platform/http';
import { ConnectProxy } from '@sesame/platform/testing';
import { Sender, parseRetryAfter } from './sender';
import type { Lookup, SenderOptions } from './sender';
import { targetUrlProblem } from '@sesame/platform/http';

describe('webhook sender (real HTTP server)', () => {
  let server: Server;
  let base: string;
  const received: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      received.push(request.url ?? '');
      if (request.url === '/ok') return void response.writeHead(204).end();
      if (request.url === '/redirect') return void response.writeHead(302, { location: '/ok' }).end();
      if (request.url === '/busy') return void response.writeHead(429, { 'retry-after': '120' }).end();
      if (request.url === '/big') return void response.writeHead(500).end(Buffer.alloc(1_000_000, 'x'));
      if (request.url === '/slow') return void setTimeout(() => response.writeHead(200).end(), 2_000);
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const sender = new Sender({ connectTimeoutMs: 1_000, responseTimeoutMs: 500, publicOnly: false, maxResponseBytes: 1_024 });
  afterAll(() => sender.close());
  const send = (path: string, with_ = sender) =>
    with_.send({ url: `${base}${path}`, body: '{}', headers: { 'webhook-id': 'e1' } });

  it('completes on 2xx and fails on anything else, without following redirects', async () => {
    await expect(send('/ok')).resolves.toEqual({ kind: 'delivered' });
    await expect(send('/redirect')).resolves.toEqual({ kind: 'failed', error: 'HTTP 302', retry_after_ms: null });
    expect(received.filter((url) => url === '/ok')).toHaveLength(1);
  });

  it("reads the receiver's Retry-After", async () => {
    await expect(send('/busy')).resolves.toEqual({ kind: 'failed', error: 'HTTP 429', retry_after_ms: 120_000 });
    expect(parseRetryAfter(new Date(Date.UTC(2026, 0, 1, 0, 1)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(60_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });

  it('caps the answer it reads and times out a slow receiver', async () => {
    await expect(send('/big')).resolves.toMatchObject({ kind: 'failed', error: 'HTTP 500' });
    await expect(send('/slow')).resolves.toMatchObject({ kind: 'failed', error: expect.stringMatching(/timeout/i) });
  });

  it('in production refuses loopback targets, by address and by name', async () => {
    const guarded = new Sender({ connectTimeoutMs: 1_000, responseTimeoutMs: 500, publicOnly: true });
    try {
      await expect(send('/ok', guarded)).resolves.toMatchObject({
        kind: 'failed',
        error: 'target address 127.0.0.1 is not public',
      });
      const port = new URL(base).port;
      await expect(guarded.send({ url: `http://localhost:${port}/ok`, body: '{}', headers: {} })).resolves.toMatchObject({
        kind: 'failed',
        error: expect.stringMatching(/is not public/),
      });
    } finally {
      await guarded.close();
    }
  });
  // Regression (issue 16, defect 15): `::/96` was missing from the blocklist.
  it('in production refuses loopback however it is spelled, without connecting', async () => {
    const guarded = new Sender({ connectTimeoutMs: 1_000, responseTimeoutMs: 500, publicOnly: true });
    const port = new URL(base).port;
    const before = received.length;
    try {
      for (const [host, address] of [
        ['[::127.0.0.1]', '::7f00:1'],
        ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
        ['2130706433', '127.0.0.1'],
        ['0x7f.1', '127.0.0.1'],
      ])
        await expect(guarded.send({ url: `http://${host}:${port}/ok`, body: '{}', headers: {} })).resolves.toEqual({
          kind: 'failed',
          error: `target address ${address} is not public`,
          retry_after_ms: null,
        });
      expect(received.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });

  it('in production checks the name again at each connection: a name rebound to loopback after the check is refused', async () => {
    let answer = '93.184.216.34';
    const lookup: Lookup = (_hostname, _options, callback) => callback(null, [{ address: answer, family: 4 }]);
    const port = new URL(base).port;
    const url = `http://rebind.example.com:${port}/ok`;
    await expect(targetUrlProblem(url.replace('http:', 'https:'), true, async () => [answer])).resolves.toBeNull();
    answer = '127.0.0.1';
    const guarded = new Sender({ connectTimeoutMs: 1_000, responseTimeoutMs: 500, publicOnly: true, lookup });
    const before = received.length;
    try {
      await expect(guarded.send({ url, body: '{}', headers: {} })).resolves.toMatchObject({
        kind: 'failed',
        error: expect.stringContaining('target address 127.0.0.1 is not public'),
      });
      answer = '::7f00:1';
      await expect(guarded.send({ url, body: '{}', headers: {} })).resolves.toMatchObject({
        kind: 'failed',
        error: expect.stringContaining('target address ::7f00:1 is not public'),
      });
      expect(received.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});

describe('webhook sender through an HTTP CONNECT proxy (real proxy, real receiver)', () => {
  let receiver: Server;
  let port: number;
  let proxy: ConnectProxy;
  const received: { url: string; host: string | undefined; proxyAuthorization: string | undefined }[] = [];
  const publicAddress = '93.184.216.34';
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      received.push({
        url: request.url ?? '',
        host: request.headers.host,
        proxyAuthorization: request.headers['proxy-authorization'],
      });
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as AddressInfo).port;
    // The network behind the proxy: the public address reaches the local receiver.
    proxy = await ConnectProxy.start({
      credentials: 'sesame:pa@ss',
      route: (authority) => authority.replace(`${publicAddress}:`, '127.0.0.1:'),
    });
  });
  afterAll(async () => {
    await proxy.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  const proxyUrl = () => proxy.url.replace('http://', 'http://sesame:pa%40ss@');
  const settings = (noProxy = '') => proxySettings({ HTTPS_PROXY: proxyUrl(), HTTP_PROXY: proxyUrl(), NO_PROXY: noProxy });
  const answering =
    (address: string): Lookup =>
    (_hostname, _options, callback) =>
      callback(null, [{ address, family: isIP(address) }]);
  const withSender = async (options: Partial<SenderOptions>, run: (sender: Sender) => Promise<void>) => {
    const sender = new Sender({ connectTimeoutMs: 1_000, responseTimeoutMs: 1_000, publicOnly: false, ...options });
    try {
      await run(sender);
    } finally {
      await sender.close();
    }
  };
  const deliver = (sender: Sender, url: string) => sender.send({ url, body: '{}', headers: { 'webhook-id': 'e1' } });

  it('delivers through the proxy when HTTP_PROXY is set, tunnelling (CONNECT) with the proxy credentials', async () => {
    await withSender({ proxies: settings() }, async (sender) => {
      const before = proxy.tunnels.length;
      await expect(deliver(sender, `http://127.0.0.1:${port}/via-proxy`)).resolves.toEqual({ kind: 'delivered' });
      expect(proxy.tunnels.slice(before)).toEqual([`127.0.0.1:${port}`]);
      expect(proxy.requests.at(-1)?.authorization).toBe(`Basic ${Buffer.from('sesame:pa@ss').toString('base64')}`);
      expect(received.at(-1)).toEqual({ url: '/via-proxy', host: `127.0.0.1:${port}`, proxyAuthorization: undefined });
    });
  });

  it('goes directly to a target NO_PROXY names', async () => {
    await withSender({ proxies: settings('example.org,127.0.0.1') }, async (sender) => {
      const before = proxy.requests.length;
      await expect(deliver(sender, `http://127.0.0.1:${port}/direct`)).resolves.toEqual({ kind: 'delivered' });
      expect(proxy.requests.length).toBe(before);
      expect(received.at(-1)?.url).toBe('/direct');
    });
  });

  it('fails the attempt when the proxy refuses the tunnel, without naming the proxy (API callers read the error)', async () => {
    const wrong = proxySettings({ HTTP_PROXY: proxy.url.replace('http://', 'http://sesame:wrong@') });
    await withSender({ proxies: wrong }, async (sender) => {
      const before = received.length;
      await expect(deliver(sender, `http://127.0.0.1:${port}/refused`)).resolves.toEqual({
        kind: 'failed',
        error: `ProxyTunnelError: the outbound proxy answered 407 to CONNECT 127.0.0.1:${port}`,
        retry_after_ms: null,
      });
      expect(received.length).toBe(before);
    });
  });

  it('in production has the proxy tunnel to the public address it checked, never to the name', async () => {
    await withSender({ proxies: settings(), publicOnly: true, lookup: answering(publicAddress) }, async (sender) => {
      const before = proxy.tunnels.length;
      await expect(deliver(sender, `http://hooks.example.com:${port}/checked`)).resolves.toEqual({ kind: 'delivered' });
      expect(proxy.tunnels.slice(before)).toEqual([`${publicAddress}:${port}`]);
      expect(received.at(-1)).toMatchObject({ url: '/checked', host: `hooks.example.com:${port}` });
    });
  });

  it('in production refuses a name that resolves to a private address without asking the proxy (nor the proxy itself)', async () => {
    const proxyPort = new URL(proxy.url).port;
    for (const [address, url] of [
      ['127.0.0.1', `http://hooks.example.com:${port}/rebound`],
      ['10.0.0.7', `http://intranet.example.com:${port}/private`],
      ['127.0.0.1', `http://proxy.internal:${proxyPort}/`],
      ['::ffff:127.0.0.1', `http://mapped.example.com:${port}/mapped`],
    ] as const)
      await withSender({ proxies: settings(), publicOnly: true, lookup: answering(address) }, async (sender) => {
        const before = { requests: proxy.requests.length, received: received.length };
        await expect(deliver(sender, url)).resolves.toMatchObject({
          kind: 'failed',
          error: expect.stringContaining(`is not public`),
        });
        expect([url, proxy.requests.length, received.length]).toEqual([url, before.requests, before.received]);
      });
    await withSender({ proxies: settings(), publicOnly: true }, async (sender) => {
      await expect(deliver(sender, `http://127.0.0.1:${proxyPort}/`)).resolves.toEqual({
        kind: 'failed',
        error: 'target address 127.0.0.1 is not public',
        retry_after_ms: null,
      });
    });
  });

  it('in production keeps checking a target NO_PROXY names: bypassing the proxy is no way around the blocklist', async () => {
    await withSender(
      { proxies: settings('hooks.example.com'), publicOnly: true, lookup: answering('127.0.0.1') },
      async (sender) => {
        const before = { requests: proxy.requests.length, received: received.length };
        await expect(deliver(sender, `http://hooks.example.com:${port}/bypass`)).resolves.toMatchObject({
          kind: 'failed',
          error: expect.stringContaining('target address 127.0.0.1 is not public'),
        });
        expect([proxy.requests.length, received.length]).toEqual([before.requests, before.received]);
      },
    );
  });

  it('speaks TLS to the target inside the tunnel, with the host name as SNI while the tunnel goes to the address', async () => {
    const names: string[] = [];
    const tlsReceiver = createTlsServer({
      SNICallback: (servername, callback) => {
        names.push(servername);
        callback(new Error('no certificate in this test'), undefined);
      },
    });
    await new Promise<void>((resolve) => tlsReceiver.listen(0, '127.0.0.1', resolve));
    const tlsPort = (tlsReceiver.address() as AddressInfo).port;
    try {
      await withSender({ proxies: settings(), publicOnly: true, lookup: answering(publicAddress) }, async (sender) => {
        await expect(deliver(sender, `https://hooks.example.com:${tlsPort}/`)).resolves.toMatchObject({ kind: 'failed' });
        expect(proxy.tunnels.at(-1)).toBe(`${publicAddress}:${tlsPort}`);
        expect(names).toEqual(['hooks.example.com']);
      });
    } finally {
      await new Promise((resolve) => tlsReceiver.close(resolve));
    }
  });
});
