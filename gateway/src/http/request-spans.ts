import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SpanKind, openSpanFromHeaders } from '@sesame/platform';
import type { OpenSpan } from '@sesame/platform';

const spans = new WeakMap<FastifyRequest, OpenSpan>();
/** Probes and scrapes come every few seconds from the platform, not from users: no trace. */
const untraced = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * One server span per HTTP request, named by method and route template (never the URL: its query
 * may carry codes), continuing the caller's `traceparent`. It ends with the answer's status.
 */
export function traceRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (untraced.has(route)) return;
    const attributes = { 'http.request.method': request.method, 'http.route': route };
    spans.set(request, openSpanFromHeaders(`${request.method} ${route}`, request.headers, { kind: SpanKind.SERVER, attributes }));
  });
  fastify.addHook('onResponse', async (request, reply) => {
    spans.get(request)?.end({ 'http.response.status_code': reply.statusCode }, reply.statusCode >= 500);
  });
}

/** The id of the trace a request is part of, while tracing is on: the access log names it. */
export const traceIdOfRequest = (request: FastifyRequest): string | undefined => spans.get(request)?.traceId;

/** Runs a route's work inside its request's span, so the NATS requests it sends continue the trace. */
export function inRequestSpan<T>(request: FastifyRequest, work: () => T): T {
  const span = spans.get(request);
  return span ? span.run(work) : work();
}
