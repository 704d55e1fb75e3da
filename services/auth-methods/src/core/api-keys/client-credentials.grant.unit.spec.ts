import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { Aggregate, KeyRing, MemoryEventStore, createLogger } from '@sesame/platform';
import type { EventMetadata } from '@sesame/platform';
import { SigningKeys } from '../signing-keys/signing-keys';
import { apiKeyAggregate } from './api-key.aggregate';
import { createApiKey } from './api-key.commands';
import { clientCredentialsGrant } from './client-credentials.grant';

const audience = 'https://sesame.test';
const metadata = (): EventMetadata => ({ correlationId: randomUUID(), occurredAt: new Date().toISOString() });

async function grantKit() {
  const eventStore = new MemoryEventStore();
  const keyRing = new KeyRing(`k1:${randomBytes(32).toString('base64')}`);
  const logger = createLogger('test', 'silent');
  const signingKeys = new SigningKeys(eventStore, keyRing, { rotateAfterMs: 86_400_000, overlapMs: 3_600_000 }, logger, metadata);
  await signingKeys.rotate();
  const apiKeys = new Aggregate({ eventStore }, apiKeyAggregate);
  const key = await createApiKey(apiKeys, { name: 'ci', environment: 'sandbox', scopes: ['users:read'] }, metadata());
  const grant = clientCredentialsGrant({
    view: { documents: { get: async () => null } } as never,
    eventStore,
    signingKeys,
    issuer: `${audience}/t/sesame`,
    audience,
    tenant: 'sesame',
    ttlSeconds: 600,
  });
  const credentials = { grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.client_secret };
  return { grant, credentials };
}

describe('client credentials grant', () => {
  it("issues tokens for the API's own audience only, whether audience is left out or named", async () => {
    const { grant, credentials } = await grantKit();
    for (const request of [credentials, { ...credentials, audience }]) {
      const answer = await grant(request);
      expect(answer).toMatchObject({ ok: true, status: 200 });
      expect(decodeJwt((answer as { body: { access_token: string } }).body.access_token).aud).toBe(audience);
    }
  });

  it.each([
    ["a relying party's audience", 'https://crm.example.com'],
    ['a near miss of the API audience', `${audience}/`],
    ['an empty audience', ''],
  ])('refuses %s with invalid_target (RFC 8707) and signs nothing', async (_case, requested) => {
    const { grant, credentials } = await grantKit();
    expect(await grant({ ...credentials, audience: requested })).toEqual({
      ok: false,
      error: {
        kind: 'oauth',
        code: 'invalid_target',
        description: 'The requested audience is not the audience of this API: leave audience out',
      },
    });
  });

  it('authenticates the client before looking at the audience', async () => {
    const { grant, credentials } = await grantKit();
    expect(await grant({ ...credentials, client_secret: 'wrong', audience: 'https://crm.example.com' })).toEqual({
      ok: false,
      error: { kind: 'oauth', code: 'invalid_client', description: 'Client authentication failed' },
    });
  });
});
