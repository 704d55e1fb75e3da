import { oauthError } from '@sesame/contracts';
import type { AuthorizationCodeEvent, OAuthErrorCode, SignInSession } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { createHash } from 'node:crypto';
import type { TokenClient } from '../../oauth/token-endpoint';
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
const client1: TokenClient = { client_id: 'client-1', environment: 'sandbox' };
type RedeemData = { redirect_uri?: string; client_id?: string; code_verifier?: string; client?: TokenClient | null; at?: string };
const redeem = (data: RedeemData = {}) => ({
  type: 'RedeemAuthorizationCode' as const,
  data: { family_id: 'family-1', at: '2026-01-01T00:01:00.000Z', client: client1, ...data },
});
// RFC 7636 appendix B: the verifier and its S256 challenge, computed here independently of the service.
const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const challenge = createHash('sha256').update(verifier).digest('base64url');
const issuedWithChallenge: AuthorizationCodeEvent = {
  type: 'AuthorizationCodeIssued',
  data: { ...(issued.data as object), code_challenge: challenge } as never,
};
const oauth = (code: OAuthErrorCode, description: string) => oauthError(code, description);
const redeemed: AuthorizationCodeEvent = {
  type: 'AuthorizationCodeRedeemed',
  // The session it signs in: the webhooks publish a magic-link sign-in from this event, once per code.
  data: { ...session, code_hash: 'hash', family_id: 'family-1', at: '2026-01-01T00:01:00.000Z' },
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
      .when(redeem({ client: null, client_id: 'client-2' }))
      .thenFails({ kind: 'oauth', code: 'invalid_grant', description: 'The authorization code was issued to another client' });
  });

  it("with an API access token (Bearer) proves only the key of the code's own sign-in, else answers as a wrong secret", () => {
    const byToken = (client_id: string, environment: 'sandbox' | 'production' = 'sandbox'): TokenClient => ({
      client_id,
      environment,
      accessToken: true,
    });
    const wrongClient = oauth('invalid_client', 'Client authentication failed');
    spec
      .given([issued])
      .when(redeem({ client: byToken('client-1') }))
      .then([redeemed]);
    spec
      .given([issued])
      .when(redeem({ client: byToken('client-2') }))
      .thenFails(wrongClient);
    spec
      .given([issued])
      .when(redeem({ client: byToken('client-1', 'production') }))
      .thenFails(wrongClient);
    spec
      .given([issued, redeemed])
      .when(redeem({ client: byToken('client-2') }))
      .thenFails(wrongClient);
    spec
      .given([issued, redeemed])
      .when(redeem({ client: byToken('client-1') }))
      .thenFails(invalidCode());
    spec
      .given([])
      .when(redeem({ client: byToken('client-1') }))
      .thenFails(invalidCode());
    const unbound = { ...issued, data: { ...issued.data, client_id: null } } as AuthorizationCodeEvent;
    spec
      .given([unbound])
      .when(redeem({ client: byToken('client-1') }))
      .thenFails(wrongClient);
  });

  it('needs an authenticated client of the environment for a code issued without code_challenge', () => {
    spec
      .given([issued])
      .when(redeem({ client: null, client_id: 'client-1' }))
      .thenFails(oauth('invalid_client', 'Client authentication failed: send client_secret, or use PKCE'));
    spec
      .given([issued])
      .when(redeem({ client: { client_id: 'client-2', environment: 'sandbox' } }))
      .thenFails(oauth('invalid_grant', 'The authorization code was issued to another client'));
    spec
      .given([issued])
      .when(redeem({ client: { client_id: 'client-1', environment: 'production' } }))
      .thenFails(oauth('invalid_grant', 'The authorization code was issued to another client'));
    spec
      .given([issued])
      .when(redeem({ code_verifier: verifier }))
      .thenFails(oauth('invalid_grant', 'code_verifier was sent but the authorization code was issued without a code_challenge'));
  });

  it('needs the code_verifier of its S256 code_challenge, from a public or a confidential client', () => {
    expect(challenge).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    spec
      .given([issuedWithChallenge])
      .when(redeem({ client: null, client_id: 'client-1', code_verifier: verifier }))
      .then([redeemed]);
    spec
      .given([issuedWithChallenge])
      .when(redeem({ code_verifier: verifier }))
      .then([redeemed]);
    spec
      .given([issuedWithChallenge])
      .when(redeem({ client: null, client_id: 'client-1' }))
      .thenFails(oauth('invalid_grant', 'code_verifier is required: the authorization code was issued with a code_challenge'));
    spec
      .given([issuedWithChallenge])
      .when(redeem({ code_verifier: 'x'.repeat(43) }))
      .thenFails(oauth('invalid_grant', 'code_verifier does not match the code_challenge of the authorization code'));
    spec
      .given([issuedWithChallenge])
      .when(redeem({ client: null, code_verifier: verifier }))
      .thenFails(oauth('invalid_request', 'client_id is required when the client does not authenticate'));
    spec
      .given([issuedWithChallenge])
      .when(redeem({ client: null, client_id: 'client-2', code_verifier: verifier }))
      .thenFails(oauth('invalid_grant', 'The authorization code was issued to another client'));
  });

  it('keeps the family its exchange started', () => {
    const state = [issued, redeemed].reduce(authorizationCodeDecider.evolve, authorizationCodeDecider.initialState());
    expect(state).toMatchObject({ status: 'redeemed', family_id: 'family-1', redirect_uri: 'https://app.acme.com/callback' });
  });
});
