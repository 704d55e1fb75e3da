import type { GroupEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { groupDecider } from '../domain/group.decider';
import type { GroupCommand, GroupState } from '../domain/group.decider';
import { groupStream } from '../projections/groups.projection';

/** A group of users (directory sync), named by its id. */
export const groupAggregate: AggregateType<GroupState, GroupCommand, GroupEvent> = { decider: groupDecider, stream: groupStream };
