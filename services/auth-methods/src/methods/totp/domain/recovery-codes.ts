import { randomBytes } from 'node:crypto';
import { hashSecret } from '@sesame/platform';
import { base32Encode } from './one-time-password';

/** Recovery codes generated on a forced re-enrollment (SPEC.md section 9). */
export const recoveryCodeCount = 5;

/** Five codes such as `k3vq-7hxa-m2pd` (60 random bits each), shown once. */
export function generateRecoveryCodes(count = recoveryCodeCount): string[] {
  return Array.from({ length: count }, () => {
    const text = base32Encode(randomBytes(8)).slice(0, 12).toLowerCase();
    return `${text.slice(0, 4)}-${text.slice(4, 8)}-${text.slice(8, 12)}`;
  });
}

/** A typed recovery code in any case, with or without dashes and spaces, reduced to its 12 characters. */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');

/** How a recovery code is stored: SHA-256 of its normalized form (60 random bits: not guessable). */
export const recoveryCodeHash = (code: string): string => hashSecret(normalizeRecoveryCode(code));
