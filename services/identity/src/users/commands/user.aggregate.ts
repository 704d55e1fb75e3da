import type { UserEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { userDecider } from '../domain/user.decider';
import type { UserCommand, UserState } from '../domain/user.decider';
import { userStream } from '../projections/users.projection';

/** A user: its decider and its stream (`user-<id>`). */
export const userAggregate: AggregateType<UserState, UserCommand, UserEvent> = { decider: userDecider, stream: userStream };
