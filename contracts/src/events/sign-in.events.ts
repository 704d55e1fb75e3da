import type { Environment } from '../common/environment.schema';
import type { ProfileInput } from '../operations/users.operations';

/** How a user proved who they are before an authorization code was issued (`amr` of the ID token). */
export const signInMethods = ['password', 'magic_link', 'totp', 'sso', 'relay'] as const;
export type SignInMethod = (typeof signInMethods)[number];

/** Who signed in, where, and how: what an authorization code and a refresh-token family carry. */
export interface SignInSession {
  environment: Environment;
  organization_domain: string;
  /**
   * The organization's id (the tenant of the code's and family's events). Absent from sessions
   * recorded before it was, and from sign-ins whose method does not name it yet (password).
   */
  organization_id?: string;
  user_id: string;
  method: SignInMethod;
  /** The API key (client) the tokens are for: `aud` of the ID token. */
  client_id: string | null;
  scope: string;
  nonce: string | null;
  /** Unix seconds of the sign-in (`auth_time`). */
  authenticated_at: number;
  /**
   * A SAML subject let in without a user account (`unregistered_users_allowed`): `user_id` is
   * then its stable subject id and the tokens' claims come from the assertion, not from identity.
   */
  unregistered?: UnregisteredSubject;
}

/** Who an identity provider vouched for, as its assertion said (no user of the organization). */
export interface UnregisteredSubject {
  sso_connection_id: string;
  name_id: string;
  email: string;
  email_verified: boolean;
  profile: ProfileInput;
  /** The assertion's attributes, as the IdP named them. */
  attributes: Record<string, string[]>;
}

/**
 * Stream `authorizationCode-<sha256 of the code>`: the code itself is never stored. Redeeming
 * appends with the expected revision, so a code is exchanged once across every replica.
 */
export type AuthorizationCodeEvent =
  | {
      type: 'AuthorizationCodeIssued';
      data: SignInSession & {
        code_hash: string;
        redirect_uri: string | null;
        expires_at: string;
        at: string;
        /** PKCE S256 challenge: the exchange must send its `code_verifier` (absent on codes issued before PKCE). */
        code_challenge?: string | null;
        /** The address the code was mailed to, when the email alone carried it: its exchange verifies that address. */
        proven_email?: string;
      };
    }
  | {
      type: 'AuthorizationCodeRedeemed';
      /**
       * The session the exchange signed in (absent on codes redeemed before it was recorded here):
       * a code is redeemed once, so this is the event of record for a sign-in that succeeded.
       */
      data: Partial<SignInSession> & { code_hash: string; family_id: string; at: string };
    };

/** Why an exchange of an issued code was refused (`checkRedemption`'s refusals, named). */
export const codeExchangeFailureReasons = [
  'already_used',
  'expired',
  'client_authentication_failed',
  'other_client',
  'redirect_uri_mismatch',
  'code_verifier_missing',
  'code_verifier_mismatch',
  'code_verifier_unexpected',
  'client_id_missing',
  'client_authentication_missing',
] as const;
export type CodeExchangeFailureReason = (typeof codeExchangeFailureReasons)[number];

/**
 * Stream `codeExchangeFailures-<sha256 of the code>`: the refused exchanges of an issued code
 * (a stream of its own, so recording them never races the code's redemption), at most
 * `maxRecordedCodeExchangeFailures` per code. An unknown code names no organization: not recorded.
 */
export type CodeExchangeFailureEvent = {
  type: 'AuthorizationCodeExchangeFailed';
  data: Pick<SignInSession, 'environment' | 'organization_domain' | 'organization_id' | 'user_id' | 'method' | 'client_id'> & {
    reason: CodeExchangeFailureReason;
    at: string;
  };
};

/**
 * Stream `refreshTokenFamily-<uuid>`: the refresh tokens issued from one sign-in. Each refresh
 * rotates the token; presenting a rotated one again revokes the whole family.
 */
export type RefreshTokenFamilyEvent =
  | {
      type: 'RefreshTokenFamilyStarted';
      data: SignInSession & {
        family_id: string;
        token_hash: string;
        expires_at: string;
        at: string;
        /** Started by an authenticated client, which must authenticate again to refresh (absent: false). */
        confidential?: boolean;
        /** End of the session (a relay's `session_duration_minutes`): no token of the family outlives it. */
        session_expires_at?: string | null;
      };
    }
  | { type: 'RefreshTokenRotated'; data: { family_id: string; token_hash: string; expires_at: string; at: string } }
  | {
      type: 'RefreshTokenFamilyRevoked';
      data: { family_id: string; reason: 'refresh_token_reused' | 'authorization_code_reused'; at: string };
    };
