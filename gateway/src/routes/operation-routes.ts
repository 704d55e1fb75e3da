import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { catalogueError } from '@sesame/contracts';
import type { Operation, RpcMeta } from '@sesame/contracts';
import { RpcUnavailableError } from '@sesame/platform';
import type { Logger, RpcClient } from '@sesame/platform';
import type { Authenticator } from '../auth/authenticator';
import { ApiError } from '../http/api-error';
import { operationInput } from './operation-input';

export interface OperationRouteDeps {
  rpc: RpcClient;
  authenticator: Authenticator;
  logger: Logger;
}

/** `{org_domain}` → `:org_domain` */
export const fastifyPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * One route per operation of the contracts: authenticate, validate, ask the service over NATS,
 * answer its reply. No business rule and no storage here (DESIGN.md section 1).
 */
export function registerOperationRoutes(fastify: FastifyInstance, operations: Operation[], deps: OperationRouteDeps): void {
  for (const operation of operations)
    for (const path of [operation.path, ...(operation.aliases ?? [])])
      fastify.route({
        method: operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
        url: fastifyPath(path),
        config: { errorStyle: operation.errorStyle ?? 'api' },
        handler: (request, reply) => serve(operation, request, reply, deps),
      });
}

async function serve(operation: Operation, request: FastifyRequest, reply: FastifyReply, deps: OperationRouteDeps) {
  const meta: RpcMeta = { correlationId: request.id };
  if (operation.auth === 'api_key') {
    const principal = await deps.authenticator.authenticate(request.headers.authorization, operation.scope);
    Object.assign(meta, principal);
  }
  const input = operationInput(operation, request);
  let answer;
  try {
    answer = await deps.rpc.request(operation.subject, { meta, input });
  } catch (error) {
    if (!(error instanceof RpcUnavailableError)) throw error;
    deps.logger.error({ err: error, correlationId: request.id }, 'service did not answer');
    throw new ApiError(catalogueError('service_unavailable'));
  }
  if (!answer.ok) throw new ApiError(answer.error);
  if (operation.errorStyle === 'oauth') void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  for (const [name, value] of Object.entries(answer.headers ?? {})) void reply.header(name, value);
  return reply.status(answer.status).send(answer.body);
}
