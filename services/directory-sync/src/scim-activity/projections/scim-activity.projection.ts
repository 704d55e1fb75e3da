import type { ScimActivityEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { scimActivityDecider } from '../domain/scim-activity.decider';
import type { ScimActivityState } from '../domain/scim-activity.decider';

export const scimActivityStreamCategory = 'scimActivity';
/** `scimActivity-<directory sync id>` */
export const scimActivityStream = (directorySyncId: string) => streamName(scimActivityStreamCategory, directorySyncId);

/** `scim_activity_v1`: one document per directory sync whose SCIM client called, by directory sync id. */
export const scimActivityView: AggregateViewDefinition<ScimActivityState, ScimActivityEvent> = {
  name: 'scim_activity',
  version: 1,
  category: scimActivityStreamCategory,
  decider: scimActivityDecider,
  isVisible: (state) => state.status === 'recorded',
};
