import type { IdTokenClaims } from 'openid-client';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertionOf, discover, DiscoveryFailed, identityProvidersPublicOnly, idTokenAlgorithmOf } from './relying-party';

describe('OIDC relying party', () => {
  describe('the ID token signing algorithm asked of the client', () => {
    it('is RS256 when the issuer offers it or says nothing', () => {
      expect(idTokenAlgorithmOf(['HS256', 'ES256', 'RS256'])).toBe('RS256');
      expect(idTokenAlgorithmOf(undefined)).toBe('RS256');
    });

    it('is the best asymmetric one the issuer offers otherwise', () => {
      expect(idTokenAlgorithmOf(['HS256', 'PS256', 'ES256'])).toBe('ES256');
      expect(idTokenAlgorithmOf(['EdDSA'])).toBe('EdDSA');
    });

    it('is never none nor a shared-secret one: such an issuer is refused', () => {
      expect(() => idTokenAlgorithmOf(['none', 'HS256'])).toThrow(
        new DiscoveryFailed('no accepted ID token signing algorithm among none, HS256'),
      );
    });
  });

  describe('the ID token read as an assertion', () => {
    const claims = {
      iss: 'https://idp.example.com',
      sub: 'user-42',
      aud: 'sesame',
      exp: 1_780_000_000,
      iat: 1_779_999_700,
      nonce: 'n-0S6_WzA2Mj',
      sid: 'session-7',
      email: 'ada@acme.com',
      email_verified: true,
      given_name: 'Ada',
      groups: ['admins', 'staff'],
    } as IdTokenClaims;

    it('names the subject by sub, keeps the identity claims (not the protocol ones) and is used once by its hash', () => {
      const assertion = assertionOf('header.payload.signature', claims, null, 'request-1');
      expect(assertion).toEqual({
        response_id: assertion.assertion_id,
        assertion_id: expect.stringMatching(/^oidc-[0-9a-f]{64}$/),
        issuer: 'https://idp.example.com',
        in_response_to: 'request-1',
        name_id: 'user-42',
        name_id_format: null,
        session_index: 'session-7',
        attributes: {
          sub: ['user-42'],
          sid: ['session-7'],
          email: ['ada@acme.com'],
          email_verified: ['true'],
          given_name: ['Ada'],
          groups: ['admins', 'staff'],
        },
        not_on_or_after: '2026-05-28T20:26:40.000Z',
      });
      expect(assertionOf('another.id.token', claims, null, 'request-1').assertion_id).not.toBe(assertion.assertion_id);
    });

    it('takes the userinfo claims the ID token lacks; the ID token wins where both say', () => {
      const assertion = assertionOf('t', claims, { sub: 'user-42', family_name: 'Lovelace', given_name: 'Augusta' }, 'r');
      expect(assertion.attributes).toMatchObject({ family_name: ['Lovelace'], given_name: ['Ada'] });
    });
  });
});

describe('OIDC relying party: identity providers on private addresses (production mode)', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // A discovery document whose endpoints are on this machine, as an internal service would answer.
    server = createServer((request, response) => {
      const issuer = `http://${request.headers.host}`;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    identityProvidersPublicOnly(false);
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses an issuer on a loopback address, by literal or by a name resolving to it, and reaches it in development', async () => {
    identityProvidersPublicOnly(true);
    const now = new Date();
    await expect(discover(`http://127.0.0.1:${port}`, now)).rejects.toThrow(
      new DiscoveryFailed('the issuer must not resolve to a loopback, link-local or private address'),
    );
    await expect(discover(`http://localhost:${port}`, now)).rejects.toThrow(
      /must not resolve to a loopback, link-local or private address/,
    );
    identityProvidersPublicOnly(false);
    await expect(discover(`http://localhost:${port}`, now)).resolves.toMatchObject({
      metadata: { issuer: `http://localhost:${port}` },
    });
  });
});
