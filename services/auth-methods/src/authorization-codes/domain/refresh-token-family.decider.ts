import { catalogueError, oauthError } from '@sesame/contracts';
import type { RefreshTokenFamilyEvent, SignInSession } from '@sesame/contracts';
import { fail, safeEqual } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

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
    });

export type RefreshTokenFamilyCommand =
  | { type: 'StartRefreshTokenFamily'; data: Started }
  | { type: 'RotateRefreshToken'; data: { presented_hash: string; token_hash: string; expires_at: string; at: string } }
  | { type: 'RevokeRefreshTokenFamily'; data: { reason: Revoked['reason']; at: string } };

export const invalidRefreshToken = () => oauthError('invalid_grant', 'The refresh token is invalid, expired or revoked');

function rotate(command: Extract<RefreshTokenFamilyCommand, { type: 'RotateRefreshToken' }>, state: RefreshTokenFamilyState) {
  if (state.status !== 'active') return fail(invalidRefreshToken());
  const { presented_hash, token_hash, expires_at, at } = command.data;
  if (state.rotated_hashes.some((hash) => safeEqual(hash, presented_hash)))
    return [
      {
        type: 'RefreshTokenFamilyRevoked' as const,
        data: { family_id: state.family_id, reason: 'refresh_token_reused' as const, at },
      },
    ];
  if (!safeEqual(state.token_hash, presented_hash) || Date.parse(at) >= Date.parse(state.expires_at))
    return fail(invalidRefreshToken());
  return [{ type: 'RefreshTokenRotated' as const, data: { family_id: state.family_id, token_hash, expires_at, at } }];
}

/**
 * The refresh tokens of one sign-in: one valid token at a time, replaced at each use. A rotated
 * token presented again means it leaked: the family is revoked (RFC 9700 section 4.14.2).
 */
export const refreshTokenFamilyDecider: Decider<RefreshTokenFamilyState, RefreshTokenFamilyCommand, RefreshTokenFamilyEvent> = {
  initialState: () => ({ status: 'empty' }),
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
        return { status: 'active', ...family, rotated_hashes: [] };
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
