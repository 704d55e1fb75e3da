import type { OrganizationEvent } from '@sesame/contracts';
import type { AggregateViewDefinition } from '@sesame/platform';
import { organizationDecider } from '../domain/organization.decider';
import type { OrganizationState } from '../domain/organization.decider';

export const organizationStreamCategory = 'organization';

/** `organizations_v1`: one document per live organization, keyed by domain. */
export const organizationsView: AggregateViewDefinition<OrganizationState, OrganizationEvent> = {
  name: 'organizations',
  version: 1,
  category: organizationStreamCategory,
  decider: organizationDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [['inserted_at']],
};
