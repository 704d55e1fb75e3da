import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { catalogueError, scimError } from '@sesame/contracts';
import { idempotentReplayedHeader } from '@sesame/contracts';
import type { Operation, RpcInput, RpcMeta, RpcReply } from '@sesame/contracts';
import { RpcUnavailableError, TypedRpcClient } from '@sesame/platform';
import type { Logger, RpcTransport } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform/messaging';
import type { Authenticator } from '../auth/authenticator';
import type { RequestLimiter } from '../rate-limits/request-limiter';
import { onboardingScope, onboardingSessionOf } from '../auth/invitation-authenticator';
import { ApiError, errorAnswer } from '../http/api-error';
import { scimContentType } from '../http/api-exception.filter';
import { withBearerClient } from '../http/bearer-client';
import { requestClient } from '../http/request-client';
import { refuseCrossSite } from '../http/same-origin';
import { readAfterOf } from '../http/read-after';
import type { IdempotencyStore } from '../idempotency/idempotency-store';
import { startIdempotent } from '../idempotency/idempotent-requests';
import { inRequestSpan } from '../http/request-spans';
import { operationInput } from './operation-input';
import { streamPages } from './stream-pages';
import type { StreamedPage } from './stream-pages';

export interface OperationRouteDeps {
  rpc: RpcClient;
  authenticator: Authenticator;
  limiter: RequestLimiter;
  /** Keys and answers of requests sent with `Idempotency-Key`. */
  idempotency: IdempotencyStore;
  logger: Logger;
  /** Origin of `SESAME_PUBLIC_URL`: the only one `sameOrigin` operations accept requests from. */
  publicOrigin: string;
  /** `SESAME_DOCS_URL`: the `doc_urls` of the error line ending a streamed answer. */
  docsUrl: string;
}

/** `{org_domain}` → `:org_domain` */
export const fastifyPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');

/**
 * One route per operation of the contracts: authenticate, validate, spend its rate-limit budgets,
 * ask the service over NATS, answer its reply. No business rule and no storage here (DESIGN.md section 1),
 * apart from the answers of requests sent with `Idempotency-Key` (replayed, never worked on twice).
 */
export function registerOperationRoutes(fastify: FastifyInstance, operations: Operation[], deps: OperationRouteDeps): void {
  for (const operation of operations)
    for (const path of [operation.path, ...(operation.aliases ?? [])])
      fastify.route({
        method: operation.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: fastifyPath(path),
        config: { errorStyle: operation.errorStyle ?? 'api' },
        handler: (request, reply) => inRequestSpan(request, () => serve(operation, request, reply, deps)),
      });
}

async function serve(operation: Operation, request: FastifyRequest, reply: FastifyReply, deps: OperationRouteDeps) {
  if (operation.sameOrigin) refuseCrossSite(request.headers, deps.publicOrigin);
  const meta: RpcMeta = { correlationId: request.id, client: requestClient(request) };
  if (operation.auth === 'none' && request.url.includes('?')) meta.rawQuery = request.url.slice(request.url.indexOf('?') + 1);
  if (operation.auth === 'none' && request.headers['accept-language']) meta.acceptLanguage = request.headers['accept-language'];
  if (operation.auth === 'api_key') {
    const principal = await deps.authenticator.authenticate(request.headers.authorization, operation.scope);
    Object.assign(meta, principal);
  }
  if (operation.auth === 'scim') meta.scim = scimCredentials(request);
  const readAfter = readAfterOf(request.headers);
  if (readAfter) meta.readAfter = readAfter;
  const transport = loggedTransport(deps, request.id);
  const ask = async (subject: string, input: unknown) => {
    try {
      return await transport.request(subject, { meta, input });
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new ApiError(catalogueError('service_unavailable'));
      throw error;
    }
  };
  const session = operation.auth === 'admin_invitation' ? onboardingSessionOf(request.headers.cookie) : undefined;
  let input: unknown = operationInput(operation, request);
  if (operation.errorStyle === 'oauth')
    input = await withBearerClient(input as RpcInput, request.headers.authorization, deps.authenticator, meta);
  const identity = { ip: request.ip, scimToken: meta.scim?.bearerToken, onboardingSession: session };
  await deps.limiter.enforce(operation, identity, input as RpcInput);
  if (operation.auth === 'admin_invitation') {
    const scope = await onboardingScope(session, new TypedRpcClient(transport), meta, operation.onboardingSetup);
    // The invitation is its invited admin's: the IT admin acting through it is named by that id.
    meta.actor = { type: 'it_admin', id: scope.admin_id };
    input = { ...((input as RpcInput).body as object), ...scope };
  }
  const idempotent = await startIdempotent(deps.idempotency, operation, request, meta, deps.logger);
  if (idempotent && 'replay' in idempotent) {
    void reply.header(idempotentReplayedHeader, 'true');
    return send(operation, reply, idempotent.replay);
  }
  if (idempotent) meta.idempotency = idempotent.claim.ticket;
  let answer: RpcReply;
  try {
    answer = await ask(operation.subject, input);
  } catch (error) {
    await idempotent?.claim.release();
    throw error;
  }
  await idempotent?.claim.settle(answer);
  if (operation.streamPages && answer.ok)
    return stream(operation, reply, answer.body as StreamedPage, input as RpcInput, ask, deps);
  return send(operation, reply, answer);
}

/**
 * The answer of a `streamPages` operation: its first page decided the status (an error is an
 * ordinary error answer), the next pages are asked one at a time as the client reads.
 */
async function stream(
  operation: Operation,
  reply: FastifyReply,
  first: StreamedPage,
  input: RpcInput,
  ask: (subject: string, input: unknown) => Promise<RpcReply>,
  deps: OperationRouteDeps,
) {
  void reply.hijack();
  reply.raw.writeHead(operation.response.status, {
    'content-type': `${operation.response.contentType ?? 'application/json'}; charset=utf-8`,
    'x-correlation-id': reply.request.id,
  });
  await streamPages(
    reply.raw,
    first,
    (after) => ask(operation.subject, { ...input, query: { ...(input.query as object), after } }),
    (error) => errorAnswer(error, deps.docsUrl).body,
  );
}

/** The services over NATS; a request no service answers is logged with its correlation id (and still thrown). */
function loggedTransport(deps: OperationRouteDeps, correlationId: string): RpcTransport {
  return {
    request: async (subject, rpcRequest) => {
      try {
        return await deps.rpc.request(subject, rpcRequest);
      } catch (error) {
        if (error instanceof RpcUnavailableError) deps.logger.error({ err: error, correlationId }, 'service did not answer');
        throw error;
      }
    },
  };
}

function send(operation: Operation, reply: FastifyReply, answer: RpcReply) {
  if (!answer.ok) throw new ApiError(answer.error);
  if (operation.errorStyle === 'oauth') void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (operation.errorStyle === 'scim') void reply.header('content-type', scimContentType);
  for (const [name, value] of Object.entries(answer.headers ?? {})) void reply.header(name, value);
  if (answer.status === 204) return reply.status(204).send();
  return reply.status(answer.status).send(answer.body);
}

/**
 * The bearer token of a SCIM client (checked by the directory-sync service, which keeps its
 * hash) and its `If-Match` header. No token: 401 in the SCIM shape.
 */
function scimCredentials(request: FastifyRequest): NonNullable<RpcMeta['scim']> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (!match) throw new ApiError(scimError(401, 'Authentication failed: send the bearer token of the directory sync'));
  const ifMatch = request.headers['if-match'];
  return { bearerToken: match[1] as string, ...(typeof ifMatch === 'string' ? { ifMatch } : {}) };
}
