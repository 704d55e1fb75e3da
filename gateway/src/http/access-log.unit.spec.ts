import Fastify from 'fastify';
import { Metrics, createLogger } from '@sesame/platform';
import { registerAccessLog, traceIdOf } from './access-log';

/** A Fastify instance with the access log and one route, its log lines captured. */
async function gateway() {
  const lines: string[] = [];
  const logger = createLogger('gateway', 'info', { write: (line: string) => void lines.push(line) });
  const metrics = new Metrics('gateway');
  const fastify = Fastify({ genReqId: () => 'corr-1' });
  registerAccessLog(fastify, logger, metrics);
  fastify.get('/api/v2/organizations/:org_domain', async () => ({ ok: true }));
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  await fastify.ready();
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { fastify, lines, entries, metrics };
}

const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzZWNyZXQifQ.c2lnbmF0dXJl';
const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('gateway access log', () => {
  it('logs one info line per request: route template, status, duration, correlation and trace ids; never the URL, a token or a query', async () => {
    const { fastify, lines, entries } = await gateway();
    await fastify.inject({
      method: 'GET',
      url: `/api/v2/organizations/acme.example?access_token=${token}&code=one-time-code`,
      headers: { authorization: `Bearer ${token}`, traceparent },
    });
    expect(entries()).toEqual([
      {
        level: 'info',
        time: expect.any(String),
        service: 'gateway',
        correlationId: 'corr-1',
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        method: 'GET',
        route: '/api/v2/organizations/:org_domain',
        status: 200,
        ms: expect.any(Number),
        msg: 'request',
      },
    ]);
    const text = lines.join('\n');
    for (const secret of [token, 'one-time-code', 'acme.example', 'Bearer', 'access_token']) expect(text).not.toContain(secret);
    await fastify.close();
  });

  it('names an unmatched request `unmatched`, has no trace id without a valid traceparent, logs probes at debug only', async () => {
    const { fastify, entries } = await gateway();
    await fastify.inject({ method: 'GET', url: `/nowhere/${token}`, headers: { traceparent: 'garbage' } });
    await fastify.inject({ method: 'GET', url: '/healthz' });
    expect(entries()).toEqual([expect.objectContaining({ route: 'unmatched', status: 404, correlationId: 'corr-1' })]);
    expect(entries()[0]).not.toHaveProperty('traceId');
    expect(JSON.stringify(entries())).not.toContain(token);
    await fastify.close();
  });

  it('counts requests and times them by method, route template and status', async () => {
    const { fastify, metrics } = await gateway();
    await fastify.inject({ method: 'GET', url: '/api/v2/organizations/a.example' });
    await fastify.inject({ method: 'GET', url: '/api/v2/organizations/b.example' });
    await fastify.inject({ method: 'GET', url: '/missing' });
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'sesame_http_requests_total{method="GET",route="/api/v2/organizations/:org_domain",status="200",process="gateway"} 2',
    );
    expect(text).toContain('sesame_http_requests_total{method="GET",route="unmatched",status="404",process="gateway"} 1');
    expect(text).toContain(
      'sesame_http_request_duration_seconds_count{process="gateway",method="GET",route="/api/v2/organizations/:org_domain",status="200"} 2',
    );
    expect(text).not.toContain('a.example');
    await fastify.close();
  });
});

describe('traceIdOf (W3C traceparent)', () => {
  it.each([
    [traceparent, '4bf92f3577b34da6a3ce929d0e0e4736'],
    [`  ${traceparent} `, '4bf92f3577b34da6a3ce929d0e0e4736'],
    ['00-00000000000000000000000000000000-00f067aa0ba902b7-01', undefined],
    ['00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', undefined],
    ['01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', undefined],
    ['00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', undefined],
    ['00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7', undefined],
    [undefined, undefined],
    [[traceparent, traceparent], undefined],
  ])('%j gives %s', (header, expected) => {
    expect(traceIdOf(header)).toBe(expected);
  });
});
