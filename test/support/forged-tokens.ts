import { createHmac, createPrivateKey, createPublicKey, createSign, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { connect } from 'nats';
import { signingKeySetDecider } from '@sesame/auth-methods';
import { KeyRing, baseConfigSchema, createLogger, fold, streamName } from '@sesame/platform';
import { openEventStore } from '@sesame/platform/stores';
import type { System } from './system';

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * The system's newest RS256 signing key, read from its event store and opened with its key ring,
 * as auth-methods does: lets a test sign tokens the gateway's signature check accepts, so that
 * each claim check (expiry, audience, issuer, kind, environment) is exercised on its own.
 */
export async function systemSigningKey(system: System): Promise<SigningKey> {
  const config = baseConfigSchema.parse(system.env);
  const nc = await connect(system.natsOptions());
  try {
    const store = await openEventStore('auth-methods', config, nc, createLogger('test', 'silent'));
    const { events } = await store.readStream(streamName('signingKeys', 'default'));
    const newest = fold(signingKeySetDecider, events as never).keys.at(-1);
    if (!newest) throw new Error('the system has no signing key');
    const keyRing = new KeyRing(system.env.SESAME_ENCRYPTION_KEYS as string);
    const privateKey = createPrivateKey({ key: JSON.parse(keyRing.open(newest.encrypted_private_jwk)), format: 'jwk' });
    return { kid: newest.kid, privateKey, publicKey: createPublicKey(privateKey) };
  } finally {
    await nc.close();
  }
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A JWS in compact form, built by hand so that a test controls every byte of the header. */
export function compactJws(header: Record<string, unknown>, payload: Record<string, unknown>, sign: (input: string) => Buffer) {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${b64url(sign(input))}`;
}

export const rsaSigner = (algorithm: 'RSA-SHA256' | 'RSA-SHA512', key: KeyObject) => (input: string) =>
  createSign(algorithm).update(input).sign(key);
export const hmacSigner = (secret: string | Buffer) => (input: string) => createHmac('sha256', secret).update(input).digest();

export function foreignRsaKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

/** The claims of a valid API-key access token of `system`'s sandbox key, valid for an hour. */
export function apiKeyClaims(system: System, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `${system.baseUrl}/t/sesame`,
    sub: system.apiKey.clientId,
    aud: system.baseUrl,
    iat: now,
    exp: now + 3_600,
    jti: '3d1f3d8e-4c1f-4a53-9f0e-7d7b1d1c2a11',
    jtt: 'api_key',
    ver: 1,
    tnt: 'sesame',
    org: 'sesame',
    cid: system.apiKey.clientId,
    env: 'sandbox',
    dbs: 'sandbox',
    scp: system.apiKey.scopes,
    ...overrides,
  };
}
