import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sender, parseRetryAfter } from './sender';
import type { Lookup } from './sender';
import { targetUrlProblem } from './target-address';

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
