import type { RefreshTokenFamilyEvent, SignInSession } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import type { TokenClient } from '../../oauth/token-endpoint';
import { invalidRefreshToken, refreshTokenFamilyDecider } from './refresh-token-family.decider';

const session: SignInSession = {
  environment: 'production',
  organization_domain: 'acme',
  user_id: '6f1c1b8e-6a2f-4a57-9a53-6a1f0b0f2f10',
  method: 'magic_link',
  client_id: null,
  scope: 'openid email profile',
  nonce: null,
  authenticated_at: 1_767_225_600,
};
const started: RefreshTokenFamilyEvent = {
  type: 'RefreshTokenFamilyStarted',
  data: { ...session, family_id: 'f1', token_hash: 'h1', expires_at: '2026-02-01T00:00:00.000Z', at: '2026-01-01T00:00:00.000Z' },
};
const rotate = (
  presented: string,
  next: string,
  at = '2026-01-02T00:00:00.000Z',
  client: { client: TokenClient | null; client_id?: string } = { client: null },
) => ({
  type: 'RotateRefreshToken' as const,
  data: { presented_hash: presented, token_hash: next, expires_at: '2026-02-02T00:00:00.000Z', at, ...client },
});
const rotated = (next: string, at = '2026-01-02T00:00:00.000Z'): RefreshTokenFamilyEvent => ({
  type: 'RefreshTokenRotated',
  data: { family_id: 'f1', token_hash: next, expires_at: '2026-02-02T00:00:00.000Z', at },
});
const spec = deciderSpecification(refreshTokenFamilyDecider);

describe('refresh token family', () => {
  it('starts once', () => {
    spec.given([]).when({ type: 'StartRefreshTokenFamily', data: started.data }).then([started]);
    spec
      .given([started])
      .when({ type: 'StartRefreshTokenFamily', data: started.data })
      .thenFails({ kind: 'error', code: 'conflict' });
  });

  it('rotates the current token, and then the next one', () => {
    spec
      .given([started])
      .when(rotate('h1', 'h2'))
      .then([rotated('h2')]);
    spec
      .given([started, rotated('h2')])
      .when(rotate('h2', 'h3'))
      .then([rotated('h3')]);
  });

  it('revokes the family when a rotated token comes back', () =>
    spec
      .given([started, rotated('h2')])
      .when(rotate('h1', 'h3'))
      .then([
        {
          type: 'RefreshTokenFamilyRevoked',
          data: { family_id: 'f1', reason: 'refresh_token_reused', at: '2026-01-02T00:00:00.000Z' },
        },
      ]));

  it('refuses unknown families and tokens, expired tokens and revoked families', () => {
    spec.given([]).when(rotate('h1', 'h2')).thenFails(invalidRefreshToken());
    spec.given([started]).when(rotate('other', 'h2')).thenFails(invalidRefreshToken());
    spec
      .given([started])
      .when(rotate('h1', 'h2', '2026-02-01T00:00:00.000Z'))
      .thenFails(invalidRefreshToken());
    const revoked: RefreshTokenFamilyEvent = {
      type: 'RefreshTokenFamilyRevoked',
      data: { family_id: 'f1', reason: 'refresh_token_reused', at: '2026-01-03T00:00:00.000Z' },
    };
    spec
      .given([started, rotated('h2'), revoked])
      .when(rotate('h2', 'h3'))
      .thenFails(invalidRefreshToken());
  });

  it('is revoked once, on request (a reused authorization code)', () => {
    const revoke = { type: 'RevokeRefreshTokenFamily' as const, data: { reason: 'authorization_code_reused' as const, at: 't' } };
    spec
      .given([started])
      .when(revoke)
      .then([{ type: 'RefreshTokenFamilyRevoked', data: { family_id: 'f1', reason: 'authorization_code_reused', at: 't' } }]);
    spec.given([]).when(revoke).thenNothingHappens();
  });

  const client1: TokenClient = { client_id: 'client-1', environment: 'production' };
  const confidential: RefreshTokenFamilyEvent = {
    type: 'RefreshTokenFamilyStarted',
    data: { ...(started.data as object), client_id: 'client-1', confidential: true } as never,
  };
  const otherClient = {
    kind: 'oauth' as const,
    code: 'invalid_grant' as const,
    description: 'The refresh token was issued to another client',
  };

  it('needs the authentication of the client that started a confidential family (RFC 9700 section 4.14.2)', () => {
    spec
      .given([confidential])
      .when(rotate('h1', 'h2', undefined, { client: client1 }))
      .then([rotated('h2')]);
    spec
      .given([confidential])
      .when(rotate('h1', 'h2', undefined, { client: null, client_id: 'client-1' }))
      .thenFails({
        kind: 'oauth',
        code: 'invalid_client',
        description: 'Client authentication failed: this refresh token was issued to an authenticated client',
      });
    spec
      .given([confidential])
      .when(rotate('h1', 'h2', undefined, { client: { client_id: 'client-2', environment: 'production' } }))
      .thenFails(otherClient);
    spec
      .given([confidential])
      .when(rotate('h1', 'h2', undefined, { client: { client_id: 'client-1', environment: 'sandbox' } }))
      .thenFails(otherClient);
  });

  it('refreshes a public (PKCE) family by rotation alone, for the client it names', () => {
    const publicFamily: RefreshTokenFamilyEvent = {
      type: 'RefreshTokenFamilyStarted',
      data: { ...(started.data as object), client_id: 'client-1', confidential: false } as never,
    };
    spec
      .given([publicFamily])
      .when(rotate('h1', 'h2', undefined, { client: null, client_id: 'client-1' }))
      .then([rotated('h2')]);
    spec
      .given([publicFamily])
      .when(rotate('h1', 'h2', undefined, { client: null, client_id: 'client-2' }))
      .thenFails(otherClient);
  });

  it('never rotates past the end of a bounded session (a relay)', () => {
    const bounded: RefreshTokenFamilyEvent = {
      type: 'RefreshTokenFamilyStarted',
      data: { ...(started.data as object), session_expires_at: '2026-01-02T01:00:00.000Z' } as never,
    };
    spec
      .given([bounded])
      .when(rotate('h1', 'h2'))
      .then([
        {
          type: 'RefreshTokenRotated',
          data: { family_id: 'f1', token_hash: 'h2', expires_at: '2026-01-02T01:00:00.000Z', at: '2026-01-02T00:00:00.000Z' },
        },
      ]);
    spec
      .given([bounded])
      .when(rotate('h1', 'h2', '2026-01-02T01:00:00.000Z'))
      .thenFails(invalidRefreshToken());
  });
});
