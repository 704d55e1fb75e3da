import { catalogueError, oauthError } from '@sesame/contracts';
import type { AuthorizationCodeEvent, SignInSession } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

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
    });

export type AuthorizationCodeCommand =
  | { type: 'IssueAuthorizationCode'; data: Extract<AuthorizationCodeEvent, { type: 'AuthorizationCodeIssued' }>['data'] }
  | {
      type: 'RedeemAuthorizationCode';
      /** `redirect_uri` and `client_id` as the token request sent them (checked when present). */
      data: { redirect_uri?: string; client_id?: string; family_id: string; at: string };
    };

/** One message for unknown, expired and used codes: an attacker learns nothing from it. */
export const invalidCode = () => oauthError('invalid_grant', 'The authorization code is invalid, expired or already used');

function redeem(command: Extract<AuthorizationCodeCommand, { type: 'RedeemAuthorizationCode' }>, state: AuthorizationCodeState) {
  if (state.status !== 'issued') return fail(invalidCode());
  const { redirect_uri, client_id, family_id, at } = command.data;
  if (Date.parse(at) >= Date.parse(state.expires_at)) return fail(invalidCode());
  if (redirect_uri !== undefined && redirect_uri !== state.redirect_uri)
    return fail(oauthError('invalid_grant', 'redirect_uri does not match the one the authorization code was issued for'));
  if (client_id !== undefined && state.client_id !== null && client_id !== state.client_id)
    return fail(oauthError('invalid_grant', 'The authorization code was issued to another client'));
  return [{ type: 'AuthorizationCodeRedeemed' as const, data: { code_hash: state.code_hash, family_id, at } }];
}

/** A one-time authorization code: issued once, redeemed at most once before it expires. */
export const authorizationCodeDecider: Decider<AuthorizationCodeState, AuthorizationCodeCommand, AuthorizationCodeEvent> = {
  initialState: () => ({ status: 'empty' }),
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
        return { status: 'issued', ...code, family_id: null };
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
