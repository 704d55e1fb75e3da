import { createLogger } from '../logging/logger';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { RpcClient, createRpcServer } from './nats-rpc';
import { ok } from './replies';
import { RpcRouter } from './rpc-router';
import { RpcUnavailableError } from './rpc-unavailable';

/** The RPC client against Nest's NATS server, on a real NATS server. */
describe('RpcClient and the RPC server (real NATS server)', () => {
  let prefix: string;
  let client: RpcClient;
  let server: ReturnType<typeof createRpcServer> | undefined;
  const meta = { correlationId: 'c1' };
  const serve = async () => {
    const router = new RpcRouter(createLogger('test', 'silent'));
    router.on('test.echo', async (input: unknown) => ok({ echoed: input }));
    server = createRpcServer(router, { nats: { servers: testNatsUrl() }, prefix, queue: 'test' });
    await new Promise<void>((resolve, reject) => server?.listen((error?: unknown) => (error ? reject(error) : resolve())));
  };
  beforeEach(async () => {
    prefix = testPrefix();
    client = await RpcClient.connect({ nats: { servers: testNatsUrl() }, prefix, timeoutMs: 3_000 });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await client.close();
  });

  it('answers each request with its own reply, many at once', async () => {
    await serve();
    const replies = await Promise.all(Array.from({ length: 50 }, (_, i) => client.request('test.echo', { meta, input: { i } })));
    expect(replies).toEqual(Array.from({ length: 50 }, (_, i) => ({ ok: true, status: 200, body: { echoed: { i } } })));
  });

  it('waits for a service that starts serving before the deadline (a restart), rather than failing at once', async () => {
    const answer = client.request('test.echo', { meta, input: 'late' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await serve();
    expect(await answer).toEqual({ ok: true, status: 200, body: { echoed: 'late' } });
  });

  it('fails with RpcUnavailableError once the deadline passes with nobody serving', async () => {
    const started = Date.now();
    await expect(client.request('test.nobody', { meta, input: {} }, 600)).rejects.toBeInstanceOf(RpcUnavailableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });
});
