import { catalogueError } from '@sesame/contracts';
import type { PasswordCodeEvent } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

type Issued = Extract<PasswordCodeEvent, { type: 'PasswordCodeIssued' }>['data'];

export type PasswordCodeState = { status: 'empty' } | (Omit<Issued, 'at'> & { status: 'issued' | 'used' });

export type PasswordCodeCommand = { type: 'IssuePasswordCode'; data: Issued } | { type: 'UsePasswordCode'; data: { at: string } };

/** The address a reset code proves (sent to that mailbox only, outside the sandbox), or null. */
export const provenEmailOf = (state: PasswordCodeState): string | null =>
  state.status !== 'empty' && state.reason === 'reset' ? (state.proven_email ?? null) : null;

/** A one-time code allowing to set a user's password (reset link, renewal): unknown, used or expired is 422. */
export const passwordCodeDecider: Decider<PasswordCodeState, PasswordCodeCommand, PasswordCodeEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'IssuePasswordCode':
        if (state.status !== 'empty') fail(catalogueError('conflict'));
        return [{ type: 'PasswordCodeIssued', data: command.data }];
      case 'UsePasswordCode':
        if (state.status !== 'issued' || Date.parse(command.data.at) >= Date.parse(state.expires_at))
          fail(catalogueError('unknown_password_code'));
        return [{ type: 'PasswordCodeUsed', data: command.data }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'PasswordCodeIssued': {
        const { at: _at, ...code } = event.data;
        return { status: 'issued', ...code };
      }
      case 'PasswordCodeUsed':
        return state.status === 'empty' ? state : { ...state, status: 'used' };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
