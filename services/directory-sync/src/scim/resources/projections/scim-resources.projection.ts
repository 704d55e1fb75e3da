import type { ScimResourceEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { scimResourceDecider } from '../domain/scim-resource.decider';
import type { ScimResourceState } from '../domain/scim-resource.decider';

export const scimResourceStreamCategory = 'scimResource';
export const scimResourceStream = (id: string) => streamName(scimResourceStreamCategory, id);

/**
 * `scim_resources_v2`: live SCIM users and groups, listed by directory sync (in creation order)
 * and found by the lookup keys of the attributes providers filter on (`userName`, `externalId`,
 * `emails.value`, `displayName`: `lookupKeysOf`), by the Sesame user they provision, or (groups) by
 * a member's id: what a user's `groups` attribute is derived from.
 */
export const scimResourcesView: AggregateViewDefinition<ScimResourceState, ScimResourceEvent> = {
  name: 'scim_resources',
  version: 2,
  category: scimResourceStreamCategory,
  decider: scimResourceDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [
    ['scim_resource.directory_sync_id', 'scim_resource.kind', 'scim_resource.created'],
    ['lookup_keys'],
    ['scim_resource.linked_id'],
    ['scim_resource.resource.members.value'],
  ],
};

/**
 * The groups with this member, by the member index alone: a lookup by equality uses the first
 * indexed field it names, and the directory's would scan the whole directory.
 */
export const groupsWithMemberFilter = (userId: string) => ({
  'scim_resource.resource.members.value': userId,
  'scim_resource.kind': 'Group',
});
