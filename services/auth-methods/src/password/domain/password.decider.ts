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

export type PasswordCommand =
  | { type: 'SetPassword'; data: Omit<Extract<PasswordEvent, { type: 'PasswordSet' }>['data'], 'previous_password_id'> }
  | { type: 'RehashPassword'; data: PasswordHash & { at: string } };

/** A user's password: set (again) at will, rehashed with the current pepper after a sign-in. */
export const passwordDecider: Decider<PasswordState, PasswordCommand, PasswordEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'SetPassword':
        return [
          {
            type: 'PasswordSet',
            data: { ...command.data, previous_password_id: state.status === 'set' ? state.password_id : null },
          },
        ];
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
