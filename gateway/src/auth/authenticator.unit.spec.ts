import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, createLocalJWKSet, exportJWK } from 'jose';
import type { JWK } from 'jose';
import { Authenticator } from './authenticator';
import type { JwksCache } from './jwks-cache';

const issuer = 'http://localhost:8080/t/sesame';
const audience = 'http://localhost:8080';

async function setup() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' } as JWK;
  let verifications = 0;
  const keySet = createLocalJWKSet({ keys: [jwk] });
  const jwks = {
    getKey: (...args: Parameters<typeof keySet>) => {
      verifications++;
      return keySet(...args);
    },
  } as unknown as JwksCache;
  const sign = (claims: Record<string, unknown>, expiresInSeconds = 3600, now = Math.floor(Date.now() / 1000)) =>
    new SignJWT({ jtt: 'api_key', env: 'sandbox', cid: 'client-1', scp: ['organizations:read'], ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(now)
      .setExpirationTime(now + expiresInSeconds)
      .sign(privateKey);
  const revocations = { loaded: true, revoked: new Set<string>() };
  const authenticator = new Authenticator(jwks, issuer, audience, {
    isLoaded: () => revocations.loaded,
    has: (clientId) => revocations.revoked.has(clientId),
  });
  return { authenticator, sign, verifications: () => verifications, revocations };
}

describe('Authenticator', () => {
  it('verifies a token once and remembers it, checking privileges on every request', async () => {
    const { authenticator, sign, verifications } = await setup();
    const token = await sign({});
    expect(await authenticator.authenticate(`Bearer ${token}`, 'organizations:read')).toEqual({
      clientId: 'client-1',
      environment: 'sandbox',
      scopes: ['organizations:read'],
    });
    await authenticator.authenticate(`Bearer ${token}`, 'organizations:read');
    expect(verifications()).toBe(1);
    await expect(authenticator.authenticate(`Bearer ${token}`, 'organizations:write')).rejects.toMatchObject({
      error: { kind: 'error', code: 'unauthorized' },
    });
  });

  it('stops accepting a remembered token once it expires', async () => {
    const { authenticator, sign } = await setup();
    const token = await sign({}, 60);
    await authenticator.authenticate(`Bearer ${token}`, undefined);
    await expect(authenticator.authenticate(`Bearer ${token}`, undefined, Date.now() + 120_000)).rejects.toMatchObject({
      error: { code: 'unauthorized' },
    });
  });

  it.each([
    ['a user token', { jtt: 'access' }],
    ['an unknown environment', { env: 'staging' }],
    ['no client id', { cid: 42 }],
  ])('refuses %s', async (_case, claims) => {
    const { authenticator, sign } = await setup();
    await expect(authenticator.authenticate(`Bearer ${await sign(claims)}`, undefined)).rejects.toMatchObject({
      error: { code: 'unauthorized' },
    });
  });

  it('refuses an expired token and never remembers a refused one', async () => {
    const { authenticator, sign, verifications } = await setup();
    const expired = await sign({}, 10, Math.floor(Date.now() / 1000) - 3600);
    for (let i = 0; i < 2; i++)
      await expect(authenticator.authenticate(`Bearer ${expired}`, undefined)).rejects.toMatchObject({
        error: { code: 'unauthorized' },
      });
    expect(verifications()).toBe(2);
  });

  it("refuses a remembered token as soon as its key is revoked, and other keys' tokens still pass", async () => {
    const { authenticator, sign, revocations } = await setup();
    const [revoked, other] = [await sign({}), await sign({ cid: 'client-2' })];
    await authenticator.authenticate(`Bearer ${revoked}`, 'organizations:read');
    revocations.revoked.add('client-1');
    await expect(authenticator.authenticate(`Bearer ${revoked}`, 'organizations:read')).rejects.toMatchObject({
      error: { kind: 'error', code: 'unauthorized' },
    });
    expect(await authenticator.authenticate(`Bearer ${other}`, 'organizations:read')).toMatchObject({ clientId: 'client-2' });
  });

  it('accepts no token until the revocations are loaded (503)', async () => {
    const { authenticator, sign, revocations } = await setup();
    revocations.loaded = false;
    await expect(authenticator.authenticate(`Bearer ${await sign({})}`, undefined)).rejects.toMatchObject({
      error: { kind: 'error', code: 'service_unavailable' },
    });
    revocations.loaded = true;
    expect(await authenticator.authenticate(`Bearer ${await sign({})}`, undefined)).toMatchObject({ clientId: 'client-1' });
  });
});
