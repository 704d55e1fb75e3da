import type { Environment, UserMetakeyEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { userMetakeyDecider } from '../domain/user-metakey.decider';
import type { UserMetakeyState } from '../domain/user-metakey.decider';

export const userMetakeyStreamCategory = 'userMetakey';
/** A user metakey is named by its environment and its name. */
export const userMetakeyKey = (environment: Environment, name: string) => `${environment}:${name}`;
export const userMetakeyKeyStream = (key: string) => streamName(userMetakeyStreamCategory, key);

/** `user_metakeys_v1`: the keys of both environments, including locked ones (being deleted). */
export const userMetakeysView: AggregateViewDefinition<UserMetakeyState, UserMetakeyEvent> = {
  name: 'user_metakeys',
  version: 1,
  category: userMetakeyStreamCategory,
  decider: userMetakeyDecider,
  isVisible: (state) => state.status === 'active' || state.status === 'locked',
  indexes: [['environment']],
};
