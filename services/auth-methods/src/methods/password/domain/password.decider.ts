import { catalogueError } from '@sesame/contracts';
import type { Environment, PasswordEvent, PasswordHash } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

export type PasswordState =
  | { status: 'empty' }
  | (PasswordHash & {
      status: 'set';
      password_id: string;
      user_id: string;
      environment: Environment;
      organization_domain: string;
      updated_at: string;
    });

type PasswordSetData = Extract<PasswordEvent, { type: 'PasswordSet' }>['data'];

export type PasswordCommand =
  | {
      type: 'SetPassword';
      /** `may_replace`: the caller proved it may replace a password in place (a `password_code`, or `passwords:write`). */
      data: Omit<PasswordSetData, 'previous_password_id'> & { may_replace: boolean };
    }
  | { type: 'RehashPassword'; data: PasswordHash & { at: string } };

/**
 * A user's password: a first one is set at will, one in place is replaced only by a caller that
 * may (401 otherwise); rehashed with the current pepper after a sign-in.
 */
export const passwordDecider: Decider<PasswordState, PasswordCommand, PasswordEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'SetPassword': {
        const { may_replace: mayReplace, ...password } = command.data;
        if (state.status === 'set' && !mayReplace) fail(catalogueError('unauthorized'));
        return [
          {
            type: 'PasswordSet',
            data: { ...password, previous_password_id: state.status === 'set' ? state.password_id : null },
          },
        ];
      }
      case 'RehashPassword':
        if (state.status === 'empty') fail(catalogueError('resource_not_found'));
        return [{ type: 'PasswordRehashed', data: command.data }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'PasswordSet': {
        const { at, previous_password_id: _previous, ...password } = event.data;
        return { status: 'set', ...password, updated_at: at };
      }
      case 'PasswordRehashed': {
        const { at, ...hash } = event.data;
        return state.status === 'empty' ? state : { ...state, ...hash, updated_at: at };
      }
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
