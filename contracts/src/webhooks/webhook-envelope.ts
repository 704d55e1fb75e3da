import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { timestampSchema } from '../common/primitives.schema';
import { webhookEventCatalogue, webhookEventCodes } from '../events/webhook-catalogue';
import type { WebhookEventCode } from '../events/webhook-catalogue';
import { webhookComponentName, webhookPayloadSchemas } from './webhook-payloads';
import type { WebhookPayload } from './webhook-payloads';

/** What every delivered event carries around its `data`. */
const envelope = {
  __type__: z.literal('Event'),
  __domain__: z.string().nullable().meta({ description: 'The organization of the event; null: the whole environment' }),
  __environment__: environmentSchema,
  id: z.string().meta({ description: 'Unique id of the event (the `webhook-id` header): the same on every attempt' }),
  issued_at: timestampSchema,
  webhook_id: z.string(),
  client_id: z.string().nullable().meta({ description: 'The API key (client) that caused it, if any' }),
  description: z.string(),
};

/** The event of one code as a webhook receives it (`UserCreatedEvent`). */
const publishedEventSchema = <C extends WebhookEventCode>(code: C) =>
  z
    .object({ ...envelope, code: z.literal(code), data: webhookPayloadSchemas[code] })
    .meta({ id: `${webhookComponentName(code)}Event`, description: webhookEventCatalogue[code] });

/** Each code's event: `data` is the code's payload. */
export const publishedEventSchemas = Object.fromEntries(webhookEventCodes.map((code) => [code, publishedEventSchema(code)])) as {
  [C in WebhookEventCode]: ReturnType<typeof publishedEventSchema<C>>;
};

/** `POST /api/v2/webhook-events/trigger-test`: an event of any code whose `data` only says it is a test. */
export const testEventSchema = z
  .object({
    ...envelope,
    code: z.enum(webhookEventCodes as [WebhookEventCode, ...WebhookEventCode[]]),
    data: z.object({ test: z.literal(true) }),
    description: z.literal('Test event'),
  })
  .meta({ id: 'TestEvent', description: 'A test event (trigger-test): its data is only `{ "test": true }`' });

type Envelope = z.infer<z.ZodObject<typeof envelope>>;
export type PublishedWebhookEvent = {
  [C in WebhookEventCode]: Envelope & { code: C; data: WebhookPayload<C> };
}[WebhookEventCode];
export type TestWebhookEvent = z.infer<typeof testEventSchema>;
/** An event as a webhook receives it: a published event (its `data` is the payload of its `code`), or a test event. */
export type WebhookPayloadEvent = PublishedWebhookEvent | TestWebhookEvent;

const publishedVariants: z.ZodObject[] = Object.values(publishedEventSchemas);

export const eventSchema = z
  .union([z.discriminatedUnion('code', publishedVariants as [z.ZodObject, ...z.ZodObject[]]), testEventSchema])
  .meta({ id: 'Event' }) as unknown as z.ZodType<WebhookPayloadEvent>;
