import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { timestampSchema } from '../common/primitives.schema';
import { actorSchema } from '../events/actor';
import { webhookEventCodes } from '../events/webhook-catalogue';
import type { WebhookEventCode } from '../events/webhook-catalogue';
import { serviceNames } from '../subjects';
import { webhookPayloadSchemas } from '../webhooks/webhook-payloads';

const payloads = Object.values(webhookPayloadSchemas) as unknown as [z.ZodType, ...z.ZodType[]];

/** One public event of the feed (`GET /api/v2/events`): the payload a webhook receives, who caused it, and when. */
export const feedEventSchema = z
  .object({
    id: z.string().meta({ description: 'Unique id of the event: the `webhook-id` of its deliveries' }),
    code: z.enum(webhookEventCodes as [WebhookEventCode, ...WebhookEventCode[]]),
    data: z.union(payloads).meta({ description: 'The payload of `code`, the same as its webhooks receive' }),
    organization_id: z.string().nullable().meta({ description: 'The organization of the event; null: the whole environment' }),
    organization_domain: z.string().nullable(),
    environment: environmentSchema,
    actor: actorSchema.nullable().meta({ description: 'Who caused it (an API key, a directory sync, a user, Sesame itself…)' }),
    occurred_at: timestampSchema,
    description: z.string(),
  })
  .meta({ id: 'FeedEvent' });
export type FeedEvent = z.infer<typeof feedEventSchema>;

/**
 * Where a reader of the feed stands: for each source service's event stream, the position
 * (stream sequence of the commit, index of the event in it) of the last event it was given.
 */
export const eventFeedPositionsSchema = z.partialRecord(
  z.enum(serviceNames),
  z.tuple([z.number().int().min(0), z.number().int().min(0)]),
);
export type EventFeedPositions = z.infer<typeof eventFeedPositionsSchema>;

/** The opaque cursor of `positions`: base64url JSON. */
export const encodeEventFeedCursor = (positions: EventFeedPositions): string =>
  Buffer.from(JSON.stringify(positions)).toString('base64url');

/** The positions a cursor names, or null when it is not a cursor of the feed. */
export function decodeEventFeedCursor(cursor: string): EventFeedPositions | null {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(cursor)) return null;
  try {
    const parsed = eventFeedPositionsSchema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** An event code, or `prefix.*` (every code starting with `prefix.`): the codes it names, none when it is unknown. */
export function codesOfPattern(pattern: string): WebhookEventCode[] {
  if (!pattern.endsWith('.*'))
    return webhookEventCodes.includes(pattern as WebhookEventCode) ? [pattern as WebhookEventCode] : [];
  const prefix = pattern.slice(0, -1);
  return prefix.length > 1 ? webhookEventCodes.filter((code) => code.startsWith(prefix)) : [];
}
