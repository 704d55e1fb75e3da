import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '../logging/logger';
import { ConnectProxy, createdWith } from '../testing/connect-proxy';
import { smsSenderContract } from '../testing/sms-sender.contract';
import { HttpSmsSender } from './http.sms-sender';
import type { SentSms } from './sms.port';

interface Received {
  authorization?: string;
  idempotencyKey?: string;
  body: { from: string; to: string; text: string };
}

/** A real HTTP peer on loopback standing for the SMS provider, keeping what it receives. */
function providerServer(received: Received[], status = () => 201): Server {
  return createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({
        authorization: request.headers.authorization,
        idempotencyKey: request.headers['idempotency-key'] as string,
        body: JSON.parse(raw),
      });
      response.writeHead(status(), { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: `msg-${received.length}` }));
    });
  });
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`;
};
const logger = createLogger('test', 'silent');
/** undici keeps connections alive: drop them, or `close` waits for their idle timeout. */
const stop = (server: Server) =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  });

describe('HttpSmsSender (HTTP provider through undici)', () => {
  const received: Received[] = [];
  let server: Server;
  let sender: HttpSmsSender;

  smsSenderContract(
    async () => {
      server = providerServer(received);
      sender = new HttpSmsSender(
        { url: await listen(server), token: 'provider-secret', from: 'Sesame', timeoutMs: 5_000 },
        logger,
      );
      return {
        sender,
        delivered: async (to: string): Promise<Partial<SentSms>[]> =>
          received.filter((sms) => sms.body.to === to).map((sms) => ({ to: sms.body.to, text: sms.body.text })),
      };
    },
    async () => {
      await sender.close();
      await stop(server);
    },
  );

  it('authenticates with the bearer token, sends an idempotency key, and keeps the provider id', async () => {
    const peer = providerServer(received);
    const another = new HttpSmsSender(
      { url: await listen(peer), token: 'provider-secret', from: 'Sesame', timeoutMs: 5_000 },
      logger,
    );
    const sent = await another.send({ to: '+33700000000', text: 'hello' });
    await another.close();
    await stop(peer);
    const last = received.at(-1);
    expect(last).toMatchObject({ authorization: 'Bearer provider-secret', idempotencyKey: sent.id, body: { from: 'Sesame' } });
    expect(sent).toMatchObject({ transport: 'http', provider_id: `msg-${received.length}` });
  });

  it('fails when the provider refuses the message', async () => {
    const refusing = providerServer([], () => 400);
    const refused = new HttpSmsSender({ url: await listen(refusing), from: 'Sesame', timeoutMs: 5_000 }, logger);
    await expect(refused.send({ to: '+33700000000', text: 'hello' })).rejects.toThrow(/SMS provider answered 400/);
    await refused.close();
    await stop(refusing);
  });

  it('sends through the proxy HTTPS_PROXY (else HTTP_PROXY) names, and directly when NO_PROXY names the provider', async () => {
    const proxy = await ConnectProxy.start();
    const peer = providerServer(received);
    const url = await listen(peer);
    const started = (env: Record<string, string>) =>
      createdWith(env, () => new HttpSmsSender({ url, from: 'Sesame', timeoutMs: 5_000 }, logger));
    try {
      const proxied = started({ HTTP_PROXY: proxy.url, NO_PROXY: '' });
      await proxied.send({ to: '+33700000001', text: 'through the proxy' });
      await proxied.close();
      expect(proxy.tunnels).toEqual([new URL(url).host]);
      const direct = started({ HTTP_PROXY: proxy.url, NO_PROXY: new URL(url).host });
      await direct.send({ to: '+33700000002', text: 'direct' });
      await direct.close();
      expect(proxy.requests).toHaveLength(1);
      expect(received.slice(-2).map((sms) => sms.body.text)).toEqual(['through the proxy', 'direct']);
    } finally {
      await proxy.stop();
      await stop(peer);
    }
  });
});
