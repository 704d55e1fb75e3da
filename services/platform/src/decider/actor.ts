import type { Actor, ActorRef, RpcMeta } from '@sesame/contracts';
import type { EventMetadata } from '../event-store/event-store.port';

/** The names older events give Sesame itself: `<service>:<reactor>`, the CLI, SCIM activity. */
const isSesame = (actor: string) => actor.includes(':') || actor === 'cli' || actor === 'scim-activity';

/**
 * Who caused a recorded event. Events recorded before actors were structured carry a string:
 * Sesame's own name for itself, else the API key's client id.
 */
export function actorOf(metadata: Pick<EventMetadata, 'actor'>): Actor | undefined {
  const { actor } = metadata;
  if (actor === undefined) return undefined;
  if (typeof actor !== 'string') return actor;
  return isSesame(actor) ? { type: 'system', id: actor } : { type: 'api_key', id: actor };
}

/**
 * Who a request acts for, and from where: `who` when the service knows better (the user who
 * signed in, the SSO connection that logged them in, the directory sync whose token was checked),
 * else the one the caller named (`meta.actor`), else the request's API key; with the client
 * address and user agent the gateway saw. No one (a public request before anyone is known): none.
 */
export function requestActor(meta: Pick<RpcMeta, 'clientId' | 'actor' | 'client'>, who?: ActorRef): Actor | undefined {
  const ref = who ?? meta.actor ?? (meta.clientId ? { type: 'api_key' as const, id: meta.clientId } : undefined);
  if (!ref) return undefined;
  return {
    type: ref.type,
    id: ref.id,
    ...(meta.client?.ip ? { ip: meta.client.ip } : {}),
    ...(meta.client?.userAgent ? { user_agent: meta.client.userAgent } : {}),
  };
}

/** Sesame itself: a reactor (`<service>:<reactor>`), the CLI, a scheduled job. */
export const systemActor = (id: string): Actor => ({ type: 'system', id });

/**
 * The request acting for `who` from here on (`requestActor` names them on what it records, and
 * the services it asks do too): the user a sign-in proved, the SSO connection of a SAML login.
 */
export const actingFor = <C extends { meta: RpcMeta }>(context: C, who: ActorRef): C => ({
  ...context,
  meta: { ...context.meta, actor: { type: who.type, id: who.id } },
});
