import type { FastifyRequest } from 'fastify';
import { acceptsIdempotencyKey, catalogueError, idempotencyKeyPattern } from '@sesame/contracts';
import type { Operation, RpcMeta, RpcReply } from '@sesame/contracts';
import type { Logger } from '@sesame/platform';
import { ApiError } from '../http/api-error';
import { fingerprintOf, storeKeyOf } from './idempotency-decision';
import type { Claim, IdempotencyStore } from './idempotency-store';

/** The `Idempotency-Key` a request sent, checked (1 to 255 printable ASCII characters, once); none: undefined. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !idempotencyKeyPattern.test(header))
    throw new ApiError(catalogueError('invalid_idempotency_key'));
  return header;
}

export type IdempotentStart = { claim: Claim } | { replay: RpcReply } | undefined;

/**
 * Opens the key of an idempotent request in the store: its claim, the answer to replay, or the
 * documented refusal (409 in progress, 422 reused; 503 when the store does not answer). Requests without the header, and operations that
 * do not accept it, go on without any.
 */
export async function startIdempotent(
  store: IdempotencyStore,
  operation: Operation,
  request: FastifyRequest,
  meta: RpcMeta,
  logger: Logger,
): Promise<IdempotentStart> {
  if (!acceptsIdempotencyKey(operation) || !meta.clientId || !meta.environment) return undefined;
  const key = idempotencyKeyOf(request);
  if (key === undefined) return undefined;
  const opened = await store
    .open(
      storeKeyOf({ clientId: meta.clientId, environment: meta.environment }, key),
      fingerprintOf(request.method, request.url, request.body),
      operation.subject,
    )
    .catch((error: unknown) => {
      // Without the store the request could run twice: refuse it, retryable, rather than risk that.
      logger.error({ err: error, correlationId: request.id }, 'idempotency store unavailable');
      throw new ApiError(catalogueError('service_unavailable'));
    });
  switch (opened.outcome) {
    case 'reused':
      throw new ApiError(catalogueError('idempotency_key_reused'));
    case 'in_progress':
      throw new ApiError(catalogueError('idempotency_request_in_progress'));
    case 'replay':
      return { replay: opened.answer };
    case 'claimed':
      return { claim: opened.claim };
  }
}
