import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret of `bytes` bytes, base64url without padding. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 of a high-entropy secret (API-key secrets, directory tokens, one-time codes): fast to
 * check and safe to store, since such secrets cannot be guessed. Never for passwords.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Checks a secret against its stored hash in constant time. */
export function verifySecret(secret: string, hash: string): boolean {
  return safeEqual(hashSecret(secret), hash);
}
