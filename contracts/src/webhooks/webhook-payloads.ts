import type { z } from '../zod';
import { webhookEventCatalogue, webhookEventCodes } from '../events/webhook-catalogue';
import type { WebhookEventCode } from '../events/webhook-catalogue';
import { authMethodsPayloadSchemas } from './auth-methods.payloads';
import { directorySyncPayloadSchemas } from './directory-sync.payloads';
import { identityPayloadSchemas } from './identity.payloads';

const payloadsByCode = {
  ...identityPayloadSchemas,
  ...authMethodsPayloadSchemas,
  ...directorySyncPayloadSchemas,
} as const satisfies Record<WebhookEventCode, z.ZodObject>;

/** `directory_sync.user.provisioning.success` → `DirectorySyncUserProvisioningSuccess`: the name of its OpenAPI components. */
export const webhookComponentName = (code: WebhookEventCode): string =>
  code
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/**
 * The public `data` of each code of the catalogue: exactly what a subscriber receives. The webhooks
 * service builds each from its internal event field by field and parses it with this schema
 * before queuing it, so a field added to an internal event never reaches a subscriber. Published
 * in OpenAPI as `<Code>EventData` (`UserCreatedEventData`).
 */
export const webhookPayloadSchemas = Object.fromEntries(
  webhookEventCodes.map((code) => [
    code,
    payloadsByCode[code].meta({ id: `${webhookComponentName(code)}EventData`, description: webhookEventCatalogue[code] }),
  ]),
) as unknown as typeof payloadsByCode;

export type WebhookPayloads = { [C in WebhookEventCode]: z.infer<(typeof payloadsByCode)[C]> };
/** The `data` of an event of code `C`. */
export type WebhookPayload<C extends WebhookEventCode> = WebhookPayloads[C];
