import { statusOf } from '../common/errors';
import type { ErrorCode } from '../common/errors';
import type { RpcReply } from '../common/rpc';
import type { Operation } from './operation';

/** The request header naming an idempotent request (Stripe's and the IETF draft's name). */
export const idempotencyKeyHeader = 'Idempotency-Key';
/** Set to `true` on an answer replayed from the idempotency store. */
export const idempotentReplayedHeader = 'Idempotent-Replayed';
/** 1 to 255 printable ASCII characters. */
export const idempotencyKeyPattern = /^[\x20-\x7e]{1,255}$/;
/** How long a key and its answer are kept. */
export const idempotencyKeyTtlSeconds = 24 * 60 * 60;

/** The errors an `Idempotency-Key` can add to an operation's answers. */
export const idempotencyErrors: ErrorCode[] = [
  'invalid_idempotency_key',
  'idempotency_request_in_progress',
  'idempotency_key_reused',
];

/**
 * Operations that accept `Idempotency-Key`: the POSTs of API-key clients. The token endpoint is left
 * out (a new token on each call is harmless and expected), as are the browser and SCIM operations.
 */
export const acceptsIdempotencyKey = (operation: Operation) => operation.method === 'post' && operation.auth === 'api_key';

/** The JetStream key-value bucket of idempotency keys and answers, shared by the gateways and the services. */
export const idempotencyBucket = (prefix: string) => `${prefix}_idempotency`;

/**
 * What the store keeps under one key: the request's fingerprint and either the moment a gateway
 * claimed it (the work is under way) or the answer it got (2xx and 4xx; a 5xx is never kept).
 */
export type IdempotencyRecord =
  { state: 'in_flight'; fingerprint: string; claimed_at: number } | { state: 'done'; fingerprint: string; answer: RpcReply };

/**
 * A claimed key, sent with the request to the service that does the work: that service stores its
 * answer under the key (at the claim's revision) before it replies, so the answer outlives a gateway
 * that dies between the work and the answer. `subject` is the operation's: a service called further
 * down the same request answers another subject and stores nothing.
 */
export interface IdempotencyTicket {
  key: string;
  revision: number;
  fingerprint: string;
  subject: string;
}

/** Whether an answer is kept under its key: 2xx and 4xx are; a 5xx is not (a retry does the work). */
export const isKeptAnswer = (answer: RpcReply) => (answer.ok ? answer.status : statusOf(answer.error)) < 500;
