import type { FastifyRequest } from 'fastify';
import { userAgentMaxLength } from '@sesame/contracts';
import type { RpcMeta } from '@sesame/contracts';

/**
 * Where a request came from, for the actor of the events it causes: the client address as
 * Fastify reads it (the connection's unless `SESAME_TRUST_PROXY` designates an `X-Forwarded-For`
 * hop) and the `User-Agent`, cut to `userAgentMaxLength` characters.
 */
export function requestClient(request: Pick<FastifyRequest, 'ip' | 'headers'>): NonNullable<RpcMeta['client']> {
  const userAgent = request.headers['user-agent']?.trim().slice(0, userAgentMaxLength);
  return { ip: request.ip, ...(userAgent ? { userAgent } : {}) };
}
