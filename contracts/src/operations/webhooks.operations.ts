import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { booleanInputSchema, httpUrlSchema, listInputSchema } from '../common/primitives.schema';
import { webhookSchema } from '../entities/webhook.schema';
import { isWebhookEventCode, webhookEventCodes } from '../events/webhook-catalogue';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { webhooksExamples } from './webhooks.examples';

/** A list of codes of the published catalogue (`contracts/src/events/webhook-catalogue.ts`). */
export const eventCodesInputSchema = listInputSchema(z.string().trim())
  .pipe(z.array(z.string()).min(1).max(100))
  .superRefine((codes, ctx) => {
    const unknown = codes.filter((code) => !isWebhookEventCode(code));
    if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `has unknown event codes: ${unknown.join(', ')}` });
  })
  .transform((codes) => [...new Set(codes)])
  .meta({ description: `Codes of the event catalogue: ${webhookEventCodes.join(', ')}` });

const nameSchema = z.string().trim().min(1).max(200);
const targetUrlSchema = z.string().trim().min(1).max(2_000).pipe(httpUrlSchema);
/** The organization a webhook is scoped to: null (or absent at creation) for every organization of the environment. */
const organizationDomainSchema = z.string().trim().min(1).max(100).nullable().meta({
  description:
    "Domain of an organization of the API key's environment: the webhook then receives only its events (404 when it does not exist). Null: every event of the environment",
});

export const createWebhookBodySchema = z
  .object({
    name: nameSchema,
    event_codes: eventCodesInputSchema,
    target_url: targetUrlSchema,
    active: booleanInputSchema.optional(),
    organization_domain: organizationDomainSchema.optional(),
  })
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookBody = z.infer<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({
    name: nameSchema.optional(),
    event_codes: eventCodesInputSchema.optional(),
    target_url: targetUrlSchema.optional(),
    active: booleanInputSchema.optional(),
    organization_domain: organizationDomainSchema.optional(),
  })
  .meta({ id: 'UpdateWebhookRequest' });
export type UpdateWebhookBody = z.infer<typeof updateWebhookBodySchema>;

export const listWebhooksQuerySchema = pageQuerySchema.extend({
  organization_domain: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Only the webhooks scoped to this organization' }),
});
export type ListWebhooksQuery = z.infer<typeof listWebhooksQuerySchema>;

export const webhookParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const webhookListSchema = listSchema(webhookSchema, 'WebhookList');
export const webhookDeletedSchema = deletedSchema(webhookSchema, 'WebhookDeleted');

export const createWebhook = defineOperation({
  operationId: 'createWebhook',
  method: 'post',
  path: '/api/v2/webhooks',
  tag: 'Webhook Setup',
  summary: 'Create a webhook',
  description:
    'Receives the events of the listed codes of the environment of the API key, or only those of one organization when `organization_domain` is given (404 when that organization does not exist in the environment). The `signature_key` signing every delivery (Standard Webhooks) is shown in this answer only. In production, target URLs resolving to loopback, link-local or private addresses are refused.',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhooks.create,
  request: { body: createWebhookBodySchema },
  response: { status: 201, description: 'The created webhook, with its signature key', schema: webhookSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: webhooksExamples.createWebhook,
});

export const listWebhooks = defineOperation({
  operationId: 'listWebhooks',
  method: 'get',
  path: '/api/v2/webhooks',
  tag: 'Webhook Setup',
  summary: 'List webhooks',
  auth: 'api_key',
  scope: 'webhooks:read',
  subject: subjects.webhooks.webhooks.list,
  request: { query: listWebhooksQuerySchema },
  response: { status: 200, description: 'A page of webhooks, oldest first', schema: webhookListSchema },
  errors: ['unauthorized'],
  examples: webhooksExamples.listWebhooks,
});

export const getWebhook = defineOperation({
  operationId: 'getWebhook',
  method: 'get',
  path: '/api/v2/webhooks/{id}',
  tag: 'Webhook Setup',
  summary: 'Retrieve a webhook',
  auth: 'api_key',
  scope: 'webhooks:read',
  subject: subjects.webhooks.webhooks.get,
  request: { params: webhookParamsSchema },
  response: { status: 200, description: 'The webhook (its signature key is not shown)', schema: webhookSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: webhooksExamples.getWebhook,
});

export const updateWebhook = defineOperation({
  operationId: 'updateWebhook',
  method: 'put',
  path: '/api/v2/webhooks/{id}',
  tag: 'Webhook Setup',
  summary: 'Update a webhook',
  description:
    '`organization_domain` may be changed (checked as at creation: 404 when the organization does not exist) or set to null to receive every event of the environment again.',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhooks.update,
  request: { params: webhookParamsSchema, body: updateWebhookBodySchema },
  response: { status: 200, description: 'The updated webhook', schema: webhookSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: webhooksExamples.updateWebhook,
});

export const deleteWebhook = defineOperation({
  operationId: 'deleteWebhook',
  method: 'delete',
  path: '/api/v2/webhooks/{id}',
  tag: 'Webhook Setup',
  summary: 'Delete a webhook',
  description: 'Its pending deliveries are cancelled.',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhooks.delete,
  request: { params: webhookParamsSchema },
  response: { status: 200, description: 'The deleted webhook', schema: webhookDeletedSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: webhooksExamples.deleteWebhook,
});

export const rotateWebhookSignatureKey = defineOperation({
  operationId: 'rotateWebhookSignatureKey',
  method: 'post',
  path: '/api/v2/webhooks/{id}/rotate-signature-key',
  tag: 'Webhook Setup',
  summary: "Rotate a webhook's signature key",
  description:
    'Generates a new signature key, shown in this answer only. For 24 hours, deliveries carry two signatures (new and previous key), so receivers can switch keys without losing a delivery.',
  auth: 'api_key',
  scope: 'webhooks:write',
  subject: subjects.webhooks.webhooks.rotateSignatureKey,
  request: { params: webhookParamsSchema },
  response: { status: 200, description: 'The webhook with its new signature key', schema: webhookSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: webhooksExamples.rotateWebhookSignatureKey,
});

export const webhookOperations = [
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSignatureKey,
];
