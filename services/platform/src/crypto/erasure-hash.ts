import { createHmac } from 'node:crypto';

/**
 * How an erasure names an email without holding it: HMAC-SHA256 of the trimmed, lowercased email,
 * keyed by the erased user's id, so the hash of one person's email matches nothing of anyone
 * else's erasure. Not a secret key: the raw event store keeps the email itself (an erasure does
 * not rewrite it), so the hash discloses nothing the store does not.
 */
export function erasureEmailHash(userId: string, email: string): string {
  return createHmac('sha256', userId).update(email.trim().toLowerCase(), 'utf8').digest('base64url');
}
