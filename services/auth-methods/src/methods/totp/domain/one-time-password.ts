import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * HOTP (RFC 4226) and TOTP (RFC 6238) with HMAC-SHA1, the algorithm every authenticator app
 * implements, plus the base32 secrets (RFC 4648) and `otpauth://` URIs they read.
 */
const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) throw new Error('Invalid base32 character');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 20 random bytes (the HMAC-SHA1 block RFC 4226 recommends), base32. */
export const generateTotpSecret = (): string => base32Encode(randomBytes(20));

/** RFC 4226 section 5.3: dynamic truncation of HMAC-SHA1(secret, counter) to `digits` digits. */
export function hotp(secret: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238: the time step of `atMs` for a period of `periodSeconds`. */
export const timeStep = (atMs: number, periodSeconds: number): number => Math.floor(atMs / 1000 / periodSeconds);

export const totp = (secret: Buffer, atMs: number, periodSeconds = 30, digits = 6): string =>
  hotp(secret, timeStep(atMs, periodSeconds), digits);

export function sameCode(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The time step whose code is `code`, looking `window` steps either side of now (clock drift and
 * typing time, RFC 6238 section 5.2), or null. The caller refuses a step already used.
 */
export function matchTotpStep(secret: Buffer, code: string, atMs: number, periodSeconds: number, window = 1): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = timeStep(atMs, periodSeconds);
  let matched: number | null = null;
  for (let step = now - window; step <= now + window; step++)
    if (sameCode(hotp(secret, step), code) && matched === null) matched = step;
  return matched;
}

/** A random HOTP counter for a code sent by SMS (each challenge has its own). */
export const randomCounter = (): number => randomInt(0, 2 ** 47);

export interface OtpauthUriInput {
  issuer: string;
  account: string;
  secret: string;
  periodSeconds: number;
}

/** The Key Uri Format authenticator apps scan: `otpauth://totp/Issuer:account?secret=...`. */
export function otpauthUri({ issuer, account, secret, periodSeconds }: OtpauthUriInput): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // Percent-encoding (`%20`), not form encoding (`+`): authenticators decode with decodeURIComponent.
  const query = Object.entries({ secret, issuer, algorithm: 'SHA1', digits: '6', period: String(periodSeconds) })
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  return `otpauth://totp/${label}?${query}`;
}
