import { webhookPayloadSchemas } from '@sesame/contracts';
import type { WebhookEventCode, WebhookPayloadEvent } from '@sesame/contracts';
import { payloadMappers } from './payload-mappers';

/** The `data` of a delivered event: the payload of its code, or a test event's `{ test: true }`. */
export type PublicPayload = WebhookPayloadEvent['data'];

/** A mapped payload that its code's schema refuses: a mapping bug, never published. */
export class PayloadMismatch extends Error {
  constructor(
    readonly code: WebhookEventCode,
    readonly issues: string[],
  ) {
    super(`The payload of ${code} does not match its schema (${issues.join(', ')})`);
  }
}

/**
 * The public payload of `code`: built field by field from the event's data by the code's mapper
 * (an allow-list), then parsed with the code's schema, which drops any field it does not name
 * (nested ones included). Issues name paths and kinds, never values.
 */
export function publicPayload(code: WebhookEventCode, data: Record<string, unknown>): PublicPayload {
  const mapped = (payloadMappers[code] as (data: Record<string, unknown>) => unknown)(data);
  const parsed = webhookPayloadSchemas[code].safeParse(mapped);
  if (!parsed.success)
    throw new PayloadMismatch(
      code,
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`),
    );
  return parsed.data;
}
