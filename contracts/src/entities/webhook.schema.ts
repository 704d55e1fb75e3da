import { z } from '../zod';
import { timestampSchema } from '../common/primitives.schema';
import { eventSchema } from '../webhooks/webhook-envelope';

export const webhookSchema = z
  .object({
    __type__: z.literal('Webhook'),
    __domain__: z.string().nullable(),
    __environment__: z.enum(['sandbox', 'production']),
    id: z.string().regex(/^webhook_/),
    name: z.string(),
    active: z.boolean(),
    event_codes: z.array(z.string()),
    target_url: z.string(),
    organization_domain: z
      .string()
      .nullable()
      .meta({ description: 'The organization whose events it receives; null: every event of its environment' }),
    signature_key: z.string().nullable().meta({ description: 'Shown at creation and rotation only' }),
    inserted_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookEventStates = [
  'available',
  'scheduled',
  'executing',
  'retryable',
  'completed',
  'cancelled',
  'discarded',
] as const;

export const webhookEventSchema = z
  .object({
    id: z.number().int(),
    args: eventSchema,
    attempt: z.number().int(),
    max_attempts: z.number().int(),
    state: z.enum([...webhookEventStates, 'canceled']),
    attempted_at: timestampSchema.nullable(),
    scheduled_at: timestampSchema.nullable(),
    completed_at: timestampSchema.nullable(),
    cancelled_at: timestampSchema.nullable(),
    discarded_at: timestampSchema.nullable(),
    inserted_at: timestampSchema,
  })
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
