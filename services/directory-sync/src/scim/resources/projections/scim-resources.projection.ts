import type { ScimResourceEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { scimResourceDecider } from '../domain/scim-resource.decider';
import type { ScimResourceState } from '../domain/scim-resource.decider';

export const scimResourceStreamCategory = 'scimResource';
export const scimResourceStream = (id: string) => streamName(scimResourceStreamCategory, id);

/**
 * `scim_resources_v1`: live SCIM users and groups, listed by directory sync (in creation order)
 * and found by `userName` (case-insensitive) or by the Sesame user they provision.
 */
export const scimResourcesView: AggregateViewDefinition<ScimResourceState, ScimResourceEvent> = {
  name: 'scim_resources',
  version: 1,
  category: scimResourceStreamCategory,
  decider: scimResourceDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [
    ['scim_resource.directory_sync_id', 'scim_resource.kind', 'scim_resource.created'],
    ['user_name_key'],
    ['scim_resource.linked_id'],
  ],
};
