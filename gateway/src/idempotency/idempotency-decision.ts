import { createHash } from 'node:crypto';
import type { IdempotencyRecord, RpcReply } from '@sesame/contracts';

export interface StoredRecord {
  record: IdempotencyRecord;
  revision: number;
}

export type IdempotencyDecision =
  /** No record: claim the key with an atomic create. */
  | { action: 'claim' }
  /** An in-flight record older than the takeover delay (its gateway died): claim it at its revision. */
  | { action: 'take_over'; revision: number }
  /** The same request already answered: answer it again. */
  | { action: 'replay'; answer: RpcReply }
  /** The key was used with another request (method, path or body): 422. */
  | { action: 'reused' }
  /** The same request is still being worked on: 409. */
  | { action: 'in_progress' };

/** sha256 of the method, the path with its query, and the parsed body. */
export const fingerprintOf = (method: string, url: string, body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify([method.toUpperCase(), url, body ?? null]))
    .digest('base64url');

/** The store's key for a client's key: hashed with the API key's client id and environment, so scopes never meet. */
export const storeKeyOf = (scope: { clientId: string; environment: string }, idempotencyKey: string) =>
  createHash('sha256')
    .update(JSON.stringify([scope.environment, scope.clientId, idempotencyKey]))
    .digest('base64url');

/** What a request carrying an `Idempotency-Key` does, given what the store holds under it. */
export function decideIdempotency(
  stored: StoredRecord | null,
  fingerprint: string,
  now: number,
  takeoverAfterMs: number,
): IdempotencyDecision {
  if (!stored) return { action: 'claim' };
  const { record, revision } = stored;
  if (record.fingerprint !== fingerprint) return { action: 'reused' };
  if (record.state === 'done') return { action: 'replay', answer: record.answer };
  if (now - record.claimed_at >= takeoverAfterMs) return { action: 'take_over', revision };
  return { action: 'in_progress' };
}
