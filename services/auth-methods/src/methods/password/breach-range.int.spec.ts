import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@sesame/platform';
import { ConnectProxy, createdWith } from '@sesame/platform/testing';
import { BreachRange } from './breach-range';

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();
const breached = 'Tr0ub4dor&3 horse';

/** A real HTTP peer on loopback serving a range API that knows one breached password (plus padding). */
describe('BreachRange (k-anonymity lookup over HTTP)', () => {
  const asked: string[] = [];
  let server: Server;
  let range: BreachRange;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const prefix = (request.url ?? '').split('/').at(-1) as string;
      asked.push(prefix);
      if ((request.url ?? '').startsWith('/failing')) return response.writeHead(503).end();
      const lines = ['0018A45C4D1DEF81644B54AB7F969B88D65:0'];
      if (prefix === sha1(breached).slice(0, 5)) lines.push(`${sha1(breached).slice(5)}:42`);
      response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    range = new BreachRange(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/range`,
      2_000,
      createLogger('test', 'silent'),
    );
  });
  afterAll(async () => {
    await range.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('finds a breached password by its hash suffix, sending only the 5-character prefix', async () => {
    expect(await range.isBreached(breached)).toBe(true);
    expect(asked.at(-1)).toBe(sha1(breached).slice(0, 5));
    expect(await range.isBreached('a passphrase nobody has leaked yet 7')).toBe(false);
  });

  it('lets the password through when the service fails or cannot be reached', async () => {
    const failing = new BreachRange(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/failing`,
      2_000,
      createLogger('test', 'silent'),
    );
    expect(await failing.isBreached(breached)).toBe(false);
    await failing.close();
    const unreachable = new BreachRange('http://127.0.0.1:1/range', 2_000, createLogger('test', 'silent'));
    expect(await unreachable.isBreached(breached)).toBe(false);
    await unreachable.close();
  });

  it('asks through the proxy HTTP_PROXY names (read at start), and directly when NO_PROXY names the service', async () => {
    const proxy = await ConnectProxy.start();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/range`;
    const started = (env: Record<string, string>) =>
      createdWith(env, () => new BreachRange(url, 2_000, createLogger('test', 'silent')));
    try {
      const proxied = started({ HTTP_PROXY: proxy.url });
      expect(await proxied.isBreached(breached)).toBe(true);
      await proxied.close();
      expect(proxy.tunnels).toEqual([`127.0.0.1:${(server.address() as AddressInfo).port}`]);
      const direct = started({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      expect(await direct.isBreached(breached)).toBe(true);
      await direct.close();
      expect(proxy.requests).toHaveLength(1);
    } finally {
      await proxy.stop();
    }
  });
});
