import type { GroupEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { groupDecider } from '../domain/group.decider';
import type { GroupState } from '../domain/group.decider';

export const groupStreamCategory = 'group';
export const groupStream = (id: string) => streamName(groupStreamCategory, id);

/** `groups_v1`: live groups by scope (organization id + environment). */
export const groupsView: AggregateViewDefinition<GroupState, GroupEvent> = {
  name: 'groups',
  version: 1,
  category: groupStreamCategory,
  decider: groupDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [['scope', 'inserted_at'], ['organization_id']],
};
