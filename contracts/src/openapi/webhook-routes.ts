import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../zod';
import { webhookEventCatalogue, webhookEventCodes } from '../events/webhook-catalogue';
import type { WebhookEventCode } from '../events/webhook-catalogue';
import { webhookComponentName } from '../webhooks/webhook-payloads';
import { publishedEventSchemas } from '../webhooks/webhook-envelope';

/** The Standard Webhooks headers of every delivery (the webhooks guide, "Verify the signature"). */
const signatureHeaders = z.object({
  'webhook-id': z.string().meta({ description: 'The event `id`: the same on every attempt, the idempotency key' }),
  'webhook-timestamp': z.string().meta({ description: 'When this attempt was sent, in Unix seconds' }),
  'webhook-signature': z
    .string()
    .meta({ description: '`v1,<base64 HMAC-SHA256>` (Standard Webhooks), space-separated when two keys sign' }),
});

/**
 * The delivery of one code of the catalogue to a webhook's `target_url`: a signed POST of the
 * code's event (OpenAPI 3.1 `webhooks`, named by code).
 */
function webhookConfig(code: WebhookEventCode): RouteConfig {
  const name = webhookComponentName(code);
  return {
    method: 'post',
    path: code,
    operationId: `${name.charAt(0).toLowerCase()}${name.slice(1)}Webhook`,
    summary: webhookEventCatalogue[code],
    description: `Sent to the \`target_url\` of every active webhook of the environment whose \`event_codes\` hold \`${code}\`.`,
    tags: ['Webhook Events'],
    security: [],
    request: {
      headers: signatureHeaders,
      body: { required: true, content: { 'application/json': { schema: publishedEventSchemas[code] } } },
    },
    responses: {
      200: { description: 'Any 2xx answer acknowledges the delivery' },
      400: { description: 'Any other answer, or none within 10 seconds, is retried later' },
    },
  };
}

export const webhookConfigs = (): RouteConfig[] => webhookEventCodes.map(webhookConfig);
