import { createHash, timingSafeEqual } from 'node:crypto';

/** BASE64URL(SHA-256(ASCII(code_verifier))), RFC 7636 section 4.2. */
export const s256Challenge = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** Whether `verifier` answers the S256 `challenge`, compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const expected = Buffer.from(s256Challenge(verifier));
  const given = Buffer.from(challenge);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
