import { catalogueError } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

/**
 * The number of users a plan limit counts (an environment, or one organization in an
 * environment): a counter stream appended with its read revision as the expected one, so two
 * creations racing for the last place cannot both be counted.
 */
export interface UserCountState {
  /** Whether the stream exists: a new counter starts at the users the read model already holds. */
  started: boolean;
  count: number;
}

export type UserCountCommand =
  /** `limit` null: unlimited; `existing`: the users already there when the counter starts. */
  | { type: 'CountUser'; data: { user_id: string; limit: number | null; existing: number } }
  /** A counter not started yet counts nothing: it starts at the next creation, from the read model. */
  | { type: 'UncountUser'; data: { user_id: string } };

export type UserCountEvent =
  | { type: 'UserCountStarted'; data: { count: number } }
  | { type: 'UserCounted'; data: { user_id: string } }
  | { type: 'UserUncounted'; data: { user_id: string } };

const start = (state: UserCountState, existing: number): UserCountEvent[] =>
  state.started ? [] : [{ type: 'UserCountStarted', data: { count: existing } }];

export const userCountDecider: Decider<UserCountState, UserCountCommand, UserCountEvent> = {
  initialState: () => ({ started: false, count: 0 }),
  decide(command, state) {
    if (command.type === 'UncountUser')
      return state.started && state.count > 0 ? [{ type: 'UserUncounted', data: { user_id: command.data.user_id } }] : [];
    const { limit, user_id, existing } = command.data;
    const count = state.started ? state.count : existing;
    if (limit !== null && count >= limit) fail(catalogueError('user_limit_reached'));
    return [...start(state, existing), { type: 'UserCounted', data: { user_id } }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'UserCountStarted':
        return { started: true, count: event.data.count };
      case 'UserCounted':
        return { ...state, count: state.count + 1 };
      case 'UserUncounted':
        return { ...state, count: Math.max(0, state.count - 1) };
    }
  },
};
