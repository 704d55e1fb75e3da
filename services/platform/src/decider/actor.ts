import type { Actor } from '@sesame/contracts';
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
