import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret in the Standard Webhooks format: `whsec_` and 32 random bytes in base64. */
export function generateSignatureKey(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function secretBytes(key: string): Buffer {
  return Buffer.from(key.startsWith('whsec_') ? key.slice('whsec_'.length) : key, 'base64');
}

/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` (Standard Webhooks). */
export function sign(key: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretBytes(key)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The Standard Webhooks headers of one delivery: `webhook-id` (the event id: the same on every
 * attempt, the receiver's idempotency key), `webhook-timestamp` (unix seconds) and
 * `webhook-signature`, one space-separated signature per valid key (two during a key rotation).
 */
export function signatureHeaders(keys: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': keys.map((key) => sign(key, id, timestamp, body)).join(' '),
  };
}
