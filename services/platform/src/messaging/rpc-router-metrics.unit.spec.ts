import { catalogueError } from '@sesame/contracts';
import { fail } from '../decider/decider';
import { createLogger } from '../logging/logger';
import { Metrics } from '../metrics/metrics';
import { ok } from './replies';
import { RpcRouter } from './rpc-router';

const request = { meta: { correlationId: 'test' }, input: {} };

async function counted(metrics: Metrics): Promise<Record<string, number>> {
  const metric = await metrics.requests.get();
  return Object.fromEntries(metric.values.map((v) => [`${v.labels.route} ${v.labels.outcome}`, v.value]));
}

describe('RpcRouter metrics', () => {
  let metrics: Metrics;
  let router: RpcRouter;

  beforeEach(() => {
    metrics = new Metrics('test');
    router = new RpcRouter(createLogger('test', 'silent'), metrics);
    router.on('things.get', async () => ok({ id: 1 }));
    router.on('things.create', async () => fail({ kind: 'fields', fields: { name: ["can't be blank"] } }));
    router.on('things.delete', async () => fail(catalogueError('resource_not_found')));
    router.on('things.token', async () => fail({ kind: 'oauth', code: 'invalid_client', description: 'bad' }));
    router.on('things.crash', async () => {
      throw new Error('boom');
    });
  });

  it('counts every dispatch by subject and the HTTP status its reply stands for', async () => {
    await router.dispatch('things.get', request);
    await router.dispatch('things.get', request);
    await router.dispatch('things.create', request);
    await router.dispatch('things.delete', request);
    await router.dispatch('things.token', request);
    await router.dispatch('things.crash', request);
    await router.dispatch('things.unknown', request);

    expect(await counted(metrics)).toEqual({
      'things.get 200': 2,
      'things.create 422': 1,
      'things.delete 404': 1,
      'things.token 401': 1,
      'things.crash 500': 1,
      'things.unknown 404': 1,
    });
  });

  it('times every dispatch in the latency histogram, exposed on /metrics', async () => {
    await router.dispatch('things.get', request);
    await router.dispatch('things.crash', request);

    const text = await metrics.registry.metrics();
    expect(text).toContain('sesame_request_duration_seconds_count{process="test",route="things.get"} 1');
    expect(text).toContain('sesame_request_duration_seconds_count{process="test",route="things.crash"} 1');
    expect(text).toContain('sesame_requests_total{route="things.get",outcome="200",process="test"} 1');
  });

  it('shows each reply of a subject and its input to the listeners of that subject only', async () => {
    const seen: [string, unknown][] = [];
    router.onReply('things.get', (reply, input) => seen.push([reply.ok ? 'ok' : 'failed', input]));
    router.onReply('things.delete', (reply, input) => seen.push([reply.ok ? 'ok' : 'failed', input]));
    await router.dispatch('things.get', { meta: { correlationId: 'c' }, input: { id: 1 } });
    await router.dispatch('things.create', request);
    await router.dispatch('things.delete', { meta: { correlationId: 'c' }, input: { id: 2 } });
    expect(seen).toEqual([
      ['ok', { id: 1 }],
      ['failed', { id: 2 }],
    ]);
  });

  it('works without metrics', async () => {
    const bare = new RpcRouter(createLogger('test', 'silent'));
    bare.on('things.get', async () => ok({ id: 1 }));
    expect(await bare.dispatch('things.get', request)).toEqual({ ok: true, status: 200, body: { id: 1 } });
  });
});
