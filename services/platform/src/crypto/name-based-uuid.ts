import { createHash } from 'node:crypto';

/**
 * A stable UUID named by `parts` (the first one names its kind): the same for the same parts,
 * distinct otherwise. Version 8 (RFC 9562, name-based from SHA-256), so it never equals a random
 * id (version 4).
 */
export function nameBasedUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
