import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger, Metrics } from '@sesame/platform';
import { traceIdOfRequest } from './request-spans';

/** W3C Trace Context `traceparent`: version 00, 32-hex trace id (not all zeros), 16-hex parent id, flags. */
const traceparentPattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The trace id of a valid `traceparent` header, else undefined. */
export function traceIdOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = traceparentPattern.exec(header.trim());
  const traceId = match?.[1];
  return traceId && !/^0+$/.test(traceId) && !/^0+$/.test(match[2] ?? '') ? traceId : undefined;
}

/** Probes answered every few seconds: logged at debug, not to drown the access log. */
const probeRoutes = new Set(['/healthz', '/readyz']);

/**
 * The route template (`/api/v2/organizations/:org_domain`), never the URL: no id, email or query
 * string (a token or a code) reaches a label or a log line. A request no route matched is `unmatched`.
 */
export const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

/** One access-log line and the HTTP metrics per answered request. */
export function accessLog(request: FastifyRequest, reply: FastifyReply, logger: Logger, metrics: Metrics): void {
  const route = routeOf(request);
  const labels = { method: request.method, route, status: String(reply.statusCode) };
  metrics.httpRequests.inc(labels);
  metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1_000);
  // The request's own trace while tracing is on (it continues the caller's), else the caller's.
  const traceId = traceIdOfRequest(request) ?? traceIdOf(request.headers.traceparent);
  const entry = {
    correlationId: request.id,
    ...(traceId ? { traceId } : {}),
    method: request.method,
    route,
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime),
  };
  if (probeRoutes.has(route)) logger.debug(entry, 'request');
  else logger.info(entry, 'request');
}

export function registerAccessLog(fastify: FastifyInstance, logger: Logger, metrics: Metrics): void {
  fastify.addHook('onResponse', async (request, reply) => accessLog(request, reply, logger, metrics));
}
