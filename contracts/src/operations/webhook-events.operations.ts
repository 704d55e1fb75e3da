import { z } from '../zod';
import { listSchema, pageQuerySchema } from '../common/pagination.schema';
import { integerInputSchema } from '../common/primitives.schema';
import { webhookEventSchema, webhookEventStates } from '../entities/webhook.schema';
import { isWebhookEventCode } from '../events/webhook-catalogue';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { webhookEventsExamples } from './webhook-events.examples';

export const listWebhookEventsQuerySchema = pageQuerySchema.extend({
  state: z.enum(webhookEventStates).optional().meta({ description: 'Only the jobs in this state' }),
  webhook_id: z.string().min(1).max(100).optional().meta({ description: 'Only the jobs of this webhook' }),
});
export type ListWebhookEventsQuery = z.infer<typeof listWebhookEventsQuerySchema>;

export const triggerTestBodySchema = z
  .object({
    event_code: z
      .string()
      .trim()
      .min(1)
      .refine(isWebhookEventCode, 'is not a known event code')
      .meta({ description: 'A code of the event catalogue' }),
  })
  .meta({ id: 'TriggerTestWebhookEventRequest' });

export const webhookEventParamsSchema = z.object({
  id: integerInputSchema.pipe(z.number().min(1)).meta({ description: 'Integer id of the job' }),
});

export const webhookEventListSchema = listSchema(webhookEventSchema, 'WebhookEventList');
export const webhookEventBatchSchema = z
  .object({ data: z.array(webhookEventSchema), total: z.number().int() })
  .meta({ id: 'WebhookEventBatch' });

export const listWebhookEvents = defineOperation({
  operationId: 'listWebhookEvents',
  method: 'get',
  path: '/api/v2/webhook-events',
  tag: 'Webhook Events',
  summary: 'List webhook event jobs',
  description: 'Delivery jobs of the environment, newest first. Final ones (completed, cancelled, discarded) are kept 24 hours.',
  auth: 'api_key',
  scope: 'webhooks:read',
  subject: subjects.webhooks.webhookEvents.list,
  request: { query: listWebhookEventsQuerySchema },
  response: { status: 200, description: 'A page of jobs', schema: webhookEventListSchema },
  errors: ['unauthorized'],
  examples: webhookEventsExamples.listWebhookEvents,
});

export const triggerTestWebhookEvent = defineOperation({
  operationId: 'triggerTestWebhookEvent',
  method: 'post',
  path: '/api/v2/webhook-events/trigger-test',
  tag: 'Webhook Events',
  summary: 'Send a test event',
  description: 'Sends a test event of this code now to every active webhook of the environment listening to it.',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhookEvents.triggerTest,
  request: { body: triggerTestBodySchema },
  response: { status: 201, description: 'The jobs created, one per matching webhook', schema: webhookEventBatchSchema },
  errors: ['unauthorized'],
  examples: webhookEventsExamples.triggerTestWebhookEvent,
});

export const retryWebhookEvent = defineOperation({
  operationId: 'retryWebhookEvent',
  method: 'post',
  path: '/api/v2/webhook-events/{id}/retry',
  tag: 'Webhook Events',
  summary: 'Retry a webhook event job',
  description:
    'Sends the job again now (one more attempt is allowed if its limit was reached). Answers the job in state `available`.',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhookEvents.retry,
  request: { params: webhookEventParamsSchema },
  response: { status: 200, description: 'The retried job', schema: webhookEventSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: webhookEventsExamples.retryWebhookEvent,
});

export const cancelWebhookEvent = defineOperation({
  operationId: 'cancelWebhookEvent',
  method: 'post',
  path: '/api/v2/webhook-events/{id}/cancel',
  tag: 'Webhook Events',
  summary: 'Cancel a webhook event job',
  description: 'Stops a pending job. Answers the job with state `canceled` (the spelling of this answer; `cancelled` elsewhere).',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhookEvents.cancel,
  request: { params: webhookEventParamsSchema },
  response: { status: 200, description: 'The cancelled job', schema: webhookEventSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: webhookEventsExamples.cancelWebhookEvent,
});

export const webhookEventOperations = [listWebhookEvents, triggerTestWebhookEvent, retryWebhookEvent, cancelWebhookEvent];
