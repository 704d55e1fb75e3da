import type { FastifyInstance } from 'fastify';
import { catalogueError, subjects } from '@sesame/contracts';
import { RpcUnavailableError } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform/messaging';
import { ApiError } from '../http/api-error';

/**
 * Development-only routes, never registered in production mode:
 * `GET /dev/outbox[?to=&tag=&limit=]` lists the messages of the local mail outbox (invitations,
 * magic links, password resets), oldest first, so that a developer can follow the links;
 * `GET /dev/sms-outbox[?to=&tag=&limit=]` the text messages of the local SMS outbox (one-time codes).
 */
export function registerDevRoutes(fastify: FastifyInstance, rpc: RpcClient): void {
  const outboxes = { '/dev/outbox': subjects.identity.devOutbox, '/dev/sms-outbox': subjects.identity.devSmsOutbox };
  for (const [path, subject] of Object.entries(outboxes))
    fastify.get(path, async (request, reply) => {
      let answer;
      try {
        answer = await rpc.request(subject, { meta: { correlationId: request.id }, input: request.query ?? {} });
      } catch (error) {
        if (error instanceof RpcUnavailableError) throw new ApiError(catalogueError('service_unavailable'));
        throw error;
      }
      if (!answer.ok) throw new ApiError(answer.error);
      return reply.status(200).send(answer.body);
    });
}
