import { randomBytes } from 'node:crypto';

/** A fresh NATS subject and stream prefix, so that test runs never collide on a shared server. */
export function testPrefix(label = 't'): string {
  return `${label}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export const testNatsUrl = () => process.env.SESAME_NATS_URL ?? 'nats://127.0.0.1:4222';
