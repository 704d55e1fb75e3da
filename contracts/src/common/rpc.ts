import type { AppError } from './errors';
import type { ActorRef } from '../events/actor';
import type { Environment } from './environment.schema';
import type { IdempotencyTicket } from '../operations/idempotency';
import type { ConsistencyPoint } from './consistency-token';

/** What the gateway (or another service) sends with every request over NATS. */
export interface RpcMeta {
  correlationId: string;
  /** The API key's environment; absent on calls that are not made with an API key. */
  environment?: Environment;
  /** The authenticated client (API key client id), when there is one. */
  clientId?: string;
  scopes?: string[];
  /** SCIM operations: the bearer token and `If-Match` header the client sent (the service owning the token checks it). */
  scim?: { bearerToken: string; ifMatch?: string };
  /**
   * Public browser operations only: the query string exactly as received (SAML HTTP-Redirect
   * binding signatures are computed over the encoded query, which re-encoding may not reproduce).
   */
  rawQuery?: string;
  /** A request sent with `Idempotency-Key`: the claimed key, for the service to store its answer under. */
  idempotency?: IdempotencyTicket;
  /** Public browser operations only: the browser's `Accept-Language` header, the language of the pages it is answered. */
  acceptLanguage?: string;
  /** The client's `Sesame-Consistency-Token`: the service named answers once its read models reached that position. */
  readAfter?: ConsistencyPoint;
  /**
   * Where the request came from, set by the gateway on every request: the client address (the
   * connection's, or the `X-Forwarded-For` hop `SESAME_TRUST_PROXY` designates) and its
   * `User-Agent` (cut to `userAgentMaxLength`). Passed on by a service asking another on its behalf.
   */
  client?: { ip: string; userAgent?: string };
  /**
   * Who the request acts for when it is not its API key (`clientId`): an IT admin's onboarding
   * session (set by the gateway), or what a service names when it asks another on someone's behalf
   * (a directory sync's SCIM push, an SSO login provisioning its user). `requestActor` reads it.
   */
  actor?: ActorRef;
}

export interface RpcInput<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
}

export interface RpcRequest<I = unknown> {
  meta: RpcMeta;
  input: I;
}

/** A service's answer: a body with its HTTP status, or an error the gateway maps to a shape. */
export type RpcReply<T = unknown> = (
  { ok: true; status: number; body: T; headers?: Record<string, string> } | { ok: false; error: AppError }
) & {
  /** Set by a service that stored this answer under the request's idempotency key (`RpcMeta.idempotency`). */
  answerStored?: true;
};
