import type { AuthorizationCodeEvent, SignInSession } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { authorizationCodeDecider, invalidCode } from './authorization-code.decider';

const session: SignInSession = {
  environment: 'sandbox',
  organization_domain: 'acme',
  user_id: '6f1c1b8e-6a2f-4a57-9a53-6a1f0b0f2f10',
  method: 'password',
  client_id: 'client-1',
  scope: 'openid email profile',
  nonce: 'n-1',
  authenticated_at: 1_767_225_600,
};
const issued: AuthorizationCodeEvent = {
  type: 'AuthorizationCodeIssued',
  data: {
    ...session,
    code_hash: 'hash',
    redirect_uri: 'https://app.acme.com/callback',
    expires_at: '2026-01-01T00:02:00.000Z',
    at: '2026-01-01T00:00:00.000Z',
  },
};
const redeem = (data: { redirect_uri?: string; client_id?: string; at?: string } = {}) => ({
  type: 'RedeemAuthorizationCode' as const,
  data: { family_id: 'family-1', at: '2026-01-01T00:01:00.000Z', ...data },
});
const redeemed: AuthorizationCodeEvent = {
  type: 'AuthorizationCodeRedeemed',
  data: { code_hash: 'hash', family_id: 'family-1', at: '2026-01-01T00:01:00.000Z' },
};
const spec = deciderSpecification(authorizationCodeDecider);

describe('authorization code', () => {
  it('is issued once', () => {
    spec.given([]).when({ type: 'IssueAuthorizationCode', data: issued.data }).then([issued]);
    spec
      .given([issued])
      .when({ type: 'IssueAuthorizationCode', data: issued.data })
      .thenFails({ kind: 'error', code: 'conflict' });
  });

  it('is redeemed before it expires, with or without the redirect URI and client of its sign-in', () => {
    spec.given([issued]).when(redeem()).then([redeemed]);
    spec
      .given([issued])
      .when(redeem({ redirect_uri: 'https://app.acme.com/callback', client_id: 'client-1' }))
      .then([redeemed]);
  });

  it('is refused when unknown, already redeemed or expired, with one message', () => {
    spec.given([]).when(redeem()).thenFails(invalidCode());
    spec.given([issued, redeemed]).when(redeem()).thenFails(invalidCode());
    spec
      .given([issued])
      .when(redeem({ at: '2026-01-01T00:02:00.000Z' }))
      .thenFails(invalidCode());
    expect(invalidCode()).toEqual({
      kind: 'oauth',
      code: 'invalid_grant',
      description: 'The authorization code is invalid, expired or already used',
    });
  });

  it('is bound to its redirect URI and its client', () => {
    spec
      .given([issued])
      .when(redeem({ redirect_uri: 'https://evil.example.com/callback' }))
      .thenFails({
        kind: 'oauth',
        code: 'invalid_grant',
        description: 'redirect_uri does not match the one the authorization code was issued for',
      });
    spec
      .given([issued])
      .when(redeem({ client_id: 'client-2' }))
      .thenFails({ kind: 'oauth', code: 'invalid_grant', description: 'The authorization code was issued to another client' });
  });

  it('keeps the family its exchange started', () => {
    const state = [issued, redeemed].reduce(authorizationCodeDecider.evolve, authorizationCodeDecider.initialState());
    expect(state).toMatchObject({ status: 'redeemed', family_id: 'family-1', redirect_uri: 'https://app.acme.com/callback' });
  });
});
