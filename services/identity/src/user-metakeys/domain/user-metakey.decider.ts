import { catalogueError, fieldError, refusedField } from '@sesame/contracts';
import type { Environment, UserMetakey, UserMetakeyEvent } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

export type UserMetakeyState =
  | { status: 'empty' }
  | ({ status: 'active' | 'locked' | 'deleted'; environment: Environment; inserted_at: string } & UserMetakey);

export type UserMetakeyCommand =
  | { type: 'CreateUserMetakey'; data: { environment: Environment; metakey: UserMetakey; at: string } }
  | { type: 'StartUserMetakeyDeletion'; data: { at: string } }
  | { type: 'FinishUserMetakeyDeletion'; data: { users_cleaned: number; at: string } };

export { metakeyLockedMessage as lockedMetakeyMessage } from '../../users/domain/user-fields';
import { metakeyLockedMessage as lockedMetakeyMessage } from '../../users/domain/user-fields';

function create(
  command: Extract<UserMetakeyCommand, { type: 'CreateUserMetakey' }>,
  state: UserMetakeyState,
): UserMetakeyEvent[] {
  if (state.status === 'active') fail(refusedField('name', 'taken'));
  if (state.status === 'locked') fail(fieldError('name', lockedMetakeyMessage));
  return [{ type: 'UserMetakeyCreated', data: command.data }];
}

function startDeletion(
  command: Extract<UserMetakeyCommand, { type: 'StartUserMetakeyDeletion' }>,
  state: UserMetakeyState,
): UserMetakeyEvent[] {
  if (state.status === 'locked') fail(fieldError('name', lockedMetakeyMessage));
  if (state.status !== 'active') fail(catalogueError('resource_not_found'));
  return [
    { type: 'UserMetakeyDeletionStarted', data: { environment: state.environment, name: state.name, at: command.data.at } },
  ];
}

function finishDeletion(
  command: Extract<UserMetakeyCommand, { type: 'FinishUserMetakeyDeletion' }>,
  state: UserMetakeyState,
): UserMetakeyEvent[] {
  if (state.status !== 'locked') return [];
  return [{ type: 'UserMetakeyDeleted', data: { environment: state.environment, name: state.name, ...command.data } }];
}

export const userMetakeyDecider: Decider<UserMetakeyState, UserMetakeyCommand, UserMetakeyEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateUserMetakey':
        return create(command, state);
      case 'StartUserMetakeyDeletion':
        return startDeletion(command, state);
      case 'FinishUserMetakeyDeletion':
        return finishDeletion(command, state);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'UserMetakeyCreated':
        return { status: 'active', environment: event.data.environment, ...event.data.metakey, inserted_at: event.data.at };
      case 'UserMetakeyDeletionStarted':
        return state.status === 'empty' ? state : { ...state, status: 'locked' };
      case 'UserMetakeyDeleted':
        return state.status === 'empty' ? state : { ...state, status: 'deleted' };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
