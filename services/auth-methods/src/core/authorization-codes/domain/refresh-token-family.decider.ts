import { catalogueError, oauthError } from '@sesame/contracts';
import type { RefreshTokenFamilyEvent, SignInSession } from '@sesame/contracts';
import { fail, safeEqual, tenantOfData } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import type { TokenClient } from '../../oauth/token-endpoint';

type Started = Extract<RefreshTokenFamilyEvent, { type: 'RefreshTokenFamilyStarted' }>['data'];
type Revoked = Extract<RefreshTokenFamilyEvent, { type: 'RefreshTokenFamilyRevoked' }>['data'];

export type RefreshTokenFamilyState =
  | { status: 'empty' }
  | (SignInSession & {
      status: 'active' | 'revoked';
      family_id: string;
      /** Hash of the one refresh token that may be used now. */
      token_hash: string;
      /** Hashes of the rotated tokens: presenting one again revokes the family. */
      rotated_hashes: string[];
      expires_at: string;
      /** Started with client authentication: refreshing needs the same client's authentication. */
      confidential: boolean;
      /** No token of the family outlives this (a relay session); null when unbounded. */
      session_expires_at: string | null;
    });

export type RefreshTokenFamilyCommand =
  | { type: 'StartRefreshTokenFamily'; data: Started }
  | {
      type: 'RotateRefreshToken';
      /** `client` the API key that authenticated (null: none), `client_id` as the request named it. */
      data: {
        presented_hash: string;
        token_hash: string;
        expires_at: string;
        at: string;
        client: TokenClient | null;
        client_id?: string;
      };
    }
  | { type: 'RevokeRefreshTokenFamily'; data: { reason: Revoked['reason']; at: string } };

export const invalidRefreshToken = () => oauthError('invalid_grant', 'The refresh token is invalid, expired or revoked');

export const otherClientRefresh = () => oauthError('invalid_grant', 'The refresh token was issued to another client');

function rotate(command: Extract<RefreshTokenFamilyCommand, { type: 'RotateRefreshToken' }>, state: RefreshTokenFamilyState) {
  if (state.status !== 'active') return fail(invalidRefreshToken());
  const { presented_hash, token_hash, expires_at, at, client, client_id } = command.data;
  checkClient(state, client, client_id);
  if (state.rotated_hashes.some((hash) => safeEqual(hash, presented_hash)))
    return [
      {
        type: 'RefreshTokenFamilyRevoked' as const,
        data: { family_id: state.family_id, reason: 'refresh_token_reused' as const, at },
      },
    ];
  const sessionOver = state.session_expires_at !== null && Date.parse(at) >= Date.parse(state.session_expires_at);
  if (!safeEqual(state.token_hash, presented_hash) || Date.parse(at) >= Date.parse(state.expires_at) || sessionOver)
    return fail(invalidRefreshToken());
  const capped = state.session_expires_at && state.session_expires_at < expires_at ? state.session_expires_at : expires_at;
  return [{ type: 'RefreshTokenRotated' as const, data: { family_id: state.family_id, token_hash, expires_at: capped, at } }];
}

/**
 * RFC 9700 section 4.14.2: a family started by a confidential client is bound to it, and the
 * client authenticates again at each refresh; a public (PKCE) family is protected by rotation.
 * Any client that does authenticate, or names itself, must be the family's.
 */
function checkClient(
  state: Exclude<RefreshTokenFamilyState, { status: 'empty' }>,
  client: TokenClient | null,
  clientId: string | undefined,
): void {
  if (state.confidential && !client)
    fail(oauthError('invalid_client', 'Client authentication failed: this refresh token was issued to an authenticated client'));
  if (client && client.environment !== state.environment) fail(otherClientRefresh());
  const presented = client?.client_id ?? clientId;
  if (presented !== undefined && state.client_id !== null && presented !== state.client_id) fail(otherClientRefresh());
}

/**
 * The refresh tokens of one sign-in: one valid token at a time, replaced at each use. A rotated
 * token presented again means it leaked: the family is revoked (RFC 9700 section 4.14.2).
 */
export const refreshTokenFamilyDecider: Decider<RefreshTokenFamilyState, RefreshTokenFamilyCommand, RefreshTokenFamilyEvent> = {
  initialState: () => ({ status: 'empty' }),
  // The session's organization id and environment, when its sign-in named its organization.
  tenant: tenantOfData,
  decide(command, state) {
    switch (command.type) {
      case 'StartRefreshTokenFamily':
        if (state.status !== 'empty') fail(catalogueError('conflict'));
        return [{ type: 'RefreshTokenFamilyStarted', data: command.data }];
      case 'RotateRefreshToken':
        return rotate(command, state);
      case 'RevokeRefreshTokenFamily':
        if (state.status !== 'active') return [];
        return [{ type: 'RefreshTokenFamilyRevoked', data: { family_id: state.family_id, ...command.data } }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'RefreshTokenFamilyStarted': {
        const { at: _at, ...family } = event.data;
        return {
          status: 'active',
          ...family,
          rotated_hashes: [],
          confidential: family.confidential ?? false,
          session_expires_at: family.session_expires_at ?? null,
        };
      }
      case 'RefreshTokenRotated':
        if (state.status === 'empty') return state;
        return {
          ...state,
          rotated_hashes: [...state.rotated_hashes, state.token_hash],
          token_hash: event.data.token_hash,
          expires_at: event.data.expires_at,
        };
      case 'RefreshTokenFamilyRevoked':
        return state.status === 'empty' ? state : { ...state, status: 'revoked' };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
