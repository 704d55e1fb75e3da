import type { UserMetakeyEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { userMetakeyDecider } from '../domain/user-metakey.decider';
import type { UserMetakeyCommand, UserMetakeyState } from '../domain/user-metakey.decider';
import { userMetakeyKeyStream } from '../projections/user-metakeys.projection';

/** A user metakey, named by its key (`userMetakeyKey`: environment and name). */
export const userMetakeyAggregate: AggregateType<UserMetakeyState, UserMetakeyCommand, UserMetakeyEvent> = {
  decider: userMetakeyDecider,
  stream: userMetakeyKeyStream,
};
