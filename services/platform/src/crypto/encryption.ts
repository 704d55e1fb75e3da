import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/**
 * AES-256-GCM encryption at rest with a rotatable key ring (DESIGN.md section 6). The key ring
 * is `kid:base64key[,kid:base64key...]`; the first key encrypts, every key decrypts. A sealed
 * value reads `v1.<kid>.<iv>.<tag>.<ciphertext>` (base64url parts). Keys are held as key objects,
 * made once (a raw key would be wrapped again on every seal and open).
 */
export class KeyRing {
  private readonly keys: Map<string, KeyObject>;
  private readonly activeKid: string;

  constructor(spec: string) {
    const entries = spec
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [kid, key] = part.split(':');
        const bytes = Buffer.from(key ?? '', 'base64');
        if (!kid || !/^[A-Za-z0-9_-]+$/.test(kid) || bytes.length !== 32)
          throw new Error('Each encryption key must read kid:base64 with a 32-byte key');
        return [kid, createSecretKey(bytes)] as const;
      });
    if (entries.length === 0) throw new Error('The encryption key ring is empty');
    this.keys = new Map(entries);
    this.activeKid = (entries[0] as readonly [string, KeyObject])[0];
  }

  get activeKeyId(): string {
    return this.activeKid;
  }

  /**
   * A secret derived from key `kid` (the active one by default) for one purpose, e.g. a password
   * pepper: HMAC-SHA256 of `label`. Throws for a key the ring no longer holds.
   */
  derive(label: string, kid = this.activeKid): { kid: string; secret: Buffer } {
    const key = this.keys.get(kid);
    if (!key) throw new Error(`Unknown key ${kid}`);
    return { kid, secret: createHmac('sha256', key).update(label, 'utf8').digest() };
  }

  static generateKeySpec(kid = 'k1'): string {
    return `${kid}:${randomBytes(32).toString('base64')}`;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.activeKid) as KeyObject, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', this.activeKid, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, kid, iv, tag, ciphertext] = sealed.split('.');
    const key = kid ? this.keys.get(kid) : undefined;
    if (version !== 'v1' || !key || !iv || !tag || ciphertext === undefined)
      throw new Error(`Cannot decrypt: unknown format or key ${kid ?? ''}`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
