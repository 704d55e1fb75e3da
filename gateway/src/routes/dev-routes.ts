import type { FastifyInstance } from 'fastify';
import { catalogueError, subjects } from '@sesame/contracts';
import { RpcUnavailableError } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform';
import { ApiError } from '../http/api-error';

/**
 * Development-only routes, never registered in production mode:
 * `GET /dev/outbox[?to=&tag=&limit=]` lists the messages of the local mail outbox (invitations,
 * magic links, password resets), oldest first, so that a developer can follow the links.
 */
export function registerDevRoutes(fastify: FastifyInstance, rpc: RpcClient): void {
  fastify.get('/dev/outbox', async (request, reply) => {
    let answer;
    try {
      answer = await rpc.request(subjects.identity.devOutbox, {
        meta: { correlationId: request.id },
        input: request.query ?? {},
      });
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new ApiError(catalogueError('service_unavailable'));
      throw error;
    }
    if (!answer.ok) throw new ApiError(answer.error);
    return reply.status(200).send(answer.body);
  });
}
