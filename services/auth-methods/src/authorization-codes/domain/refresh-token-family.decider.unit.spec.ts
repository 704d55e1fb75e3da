import type { RefreshTokenFamilyEvent, SignInSession } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
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
const rotate = (presented: string, next: string, at = '2026-01-02T00:00:00.000Z') => ({
  type: 'RotateRefreshToken' as const,
  data: { presented_hash: presented, token_hash: next, expires_at: '2026-02-02T00:00:00.000Z', at },
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
});
