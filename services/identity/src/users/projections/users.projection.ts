import type { UserEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { userDecider } from '../domain/user.decider';
import type { UserState } from '../domain/user.decider';

export const userStreamCategory = 'user';
export const userStream = (id: string) => streamName(userStreamCategory, id);

/** `users_v1`: one document per live user, found by scope (organization id + environment) or email key. */
export const usersView: AggregateViewDefinition<UserState, UserEvent> = {
  name: 'users',
  version: 1,
  category: userStreamCategory,
  decider: userDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [['email_key'], ['scope', 'inserted_at'], ['organization_id']],
};
