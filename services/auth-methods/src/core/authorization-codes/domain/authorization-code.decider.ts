import { catalogueError, oauthError } from '@sesame/contracts';
import type { AppError, AuthorizationCodeEvent, CodeExchangeFailureReason, SignInSession } from '@sesame/contracts';
import { fail, tenantOfData } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import { clientAuthenticationFailed } from '../../oauth/token-endpoint';
import type { TokenClient } from '../../oauth/token-endpoint';
import { verifierMatches } from './pkce';

export type AuthorizationCodeState =
  | { status: 'empty' }
  | (SignInSession & {
      status: 'issued' | 'redeemed';
      code_hash: string;
      /** Where the sign-in sends the user back with the code; null when it answered the code directly. */
      redirect_uri: string | null;
      expires_at: string;
      /** The refresh-token family the exchange started (revoked if the code is presented again). */
      family_id: string | null;
      /** PKCE S256 challenge of the sign-in, or null. */
      code_challenge: string | null;
      /** The address the code was mailed to, when the email alone carried it. */
      proven_email?: string;
    });

export type AuthorizationCodeCommand =
  | { type: 'IssueAuthorizationCode'; data: Extract<AuthorizationCodeEvent, { type: 'AuthorizationCodeIssued' }>['data'] }
  | {
      type: 'RedeemAuthorizationCode';
      /**
       * `redirect_uri`, `client_id` and `code_verifier` as the token request sent them; `client`
       * the API key that authenticated (null for a public client).
       */
      data: {
        redirect_uri?: string;
        client_id?: string;
        code_verifier?: string;
        client: TokenClient | null;
        family_id: string;
        at: string;
      };
    };

/** One message for unknown, expired and used codes: an attacker learns nothing from it. */
export const invalidCode = () => oauthError('invalid_grant', 'The authorization code is invalid, expired or already used');

export const otherClient = () => oauthError('invalid_grant', 'The authorization code was issued to another client');

/**
 * An API access token proves its key only for the codes of that key's own sign-ins, in its
 * environment: any other code answers as a wrong secret would.
 */
const ownedByTokenClient = (client: TokenClient, state: Exclude<AuthorizationCodeState, { status: 'empty' }>) =>
  client.environment === state.environment && state.client_id !== null && client.client_id === state.client_id;

/** A token request's redemption of a code, before the refresh-token family it opens is known. */
export type Redemption = Omit<Extract<AuthorizationCodeCommand, { type: 'RedeemAuthorizationCode' }>['data'], 'family_id'>;

/** An issued code, not yet redeemed. */
export type RedeemableCode = Extract<AuthorizationCodeState, { status: 'issued' | 'redeemed' }>;

/** A refusal of a redemption: why (as the events name it) and what the token request is answered. */
export interface RedemptionRefusal {
  reason: CodeExchangeFailureReason;
  error: AppError;
}

const refusal = (reason: CodeExchangeFailureReason, error: AppError): RedemptionRefusal => ({ reason, error });

/**
 * Every refusal a redemption can meet on an issued or redeemed code (used or expired, another
 * client, another redirect URI, a missing or wrong proof), in the order they are checked; null: none.
 */
export function redemptionRefusal(redemption: Redemption, state: RedeemableCode): RedemptionRefusal | null {
  const { redirect_uri, client_id, client, at } = redemption;
  if (client?.accessToken && !ownedByTokenClient(client, state))
    return refusal('client_authentication_failed', clientAuthenticationFailed());
  if (state.status !== 'issued') return refusal('already_used', invalidCode());
  if (Date.parse(at) >= Date.parse(state.expires_at)) return refusal('expired', invalidCode());
  const presented = client?.client_id ?? client_id;
  if (client && client.environment !== state.environment) return refusal('other_client', otherClient());
  if (presented !== undefined && state.client_id !== null && presented !== state.client_id)
    return refusal('other_client', otherClient());
  if (redirect_uri !== undefined && redirect_uri !== state.redirect_uri)
    return refusal(
      'redirect_uri_mismatch',
      oauthError('invalid_grant', 'redirect_uri does not match the one the authorization code was issued for'),
    );
  return proofRefusal(redemption, state);
}

/**
 * Every refusal a redemption can meet on this state (the code unknown, or `redemptionRefusal`'s):
 * answers the code it may redeem.
 */
export function checkRedemption(redemption: Redemption, state: AuthorizationCodeState): RedeemableCode {
  if (state.status === 'empty') return fail(invalidCode());
  const refused = redemptionRefusal(redemption, state);
  return refused ? fail(refused.error) : state;
}

function redeem(command: Extract<AuthorizationCodeCommand, { type: 'RedeemAuthorizationCode' }>, state: AuthorizationCodeState) {
  const { family_id, at } = command.data;
  const {
    status: _status,
    code_hash,
    redirect_uri: _redirect,
    expires_at: _expires,
    family_id: _family,
    code_challenge: _challenge,
    ...session
  } = checkRedemption(command.data, state);
  return [{ type: 'AuthorizationCodeRedeemed' as const, data: { ...session, code_hash, family_id, at } }];
}

/**
 * How the client proves the code is its own (RFC 6749 section 4.1.3, RFC 7636 section 4.6,
 * RFC 9700 section 2.1.1): the code_verifier of a code issued with a code_challenge (always,
 * even for a confidential client), else the client's own authentication. A public client names
 * itself with client_id.
 */
function proofRefusal(
  { code_verifier, client, client_id }: { code_verifier?: string; client: TokenClient | null; client_id?: string },
  state: RedeemableCode,
): RedemptionRefusal | null {
  if (state.code_challenge) {
    if (code_verifier === undefined)
      return refusal(
        'code_verifier_missing',
        oauthError('invalid_grant', 'code_verifier is required: the authorization code was issued with a code_challenge'),
      );
    if (!verifierMatches(code_verifier, state.code_challenge))
      return refusal(
        'code_verifier_mismatch',
        oauthError('invalid_grant', 'code_verifier does not match the code_challenge of the authorization code'),
      );
    if (!client && client_id === undefined)
      return refusal(
        'client_id_missing',
        oauthError('invalid_request', 'client_id is required when the client does not authenticate'),
      );
    return null;
  }
  if (code_verifier !== undefined)
    return refusal(
      'code_verifier_unexpected',
      oauthError('invalid_grant', 'code_verifier was sent but the authorization code was issued without a code_challenge'),
    );
  if (!client)
    return refusal(
      'client_authentication_missing',
      oauthError('invalid_client', 'Client authentication failed: send client_secret, or use PKCE'),
    );
  return null;
}

/** A one-time authorization code: issued once, redeemed at most once before it expires. */
export const authorizationCodeDecider: Decider<AuthorizationCodeState, AuthorizationCodeCommand, AuthorizationCodeEvent> = {
  initialState: () => ({ status: 'empty' }),
  // The session's organization id and environment, when the code was issued naming its organization.
  tenant: tenantOfData,
  decide(command, state) {
    switch (command.type) {
      case 'IssueAuthorizationCode':
        if (state.status !== 'empty') fail(catalogueError('conflict'));
        return [{ type: 'AuthorizationCodeIssued', data: command.data }];
      case 'RedeemAuthorizationCode':
        return redeem(command, state);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AuthorizationCodeIssued': {
        const { at: _at, ...code } = event.data;
        return { status: 'issued', ...code, code_challenge: code.code_challenge ?? null, family_id: null };
      }
      case 'AuthorizationCodeRedeemed':
        return state.status === 'empty' ? state : { ...state, status: 'redeemed', family_id: event.data.family_id };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
