import type { OrganizationEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { organizationDecider } from '../domain/organization.decider';
import type { OrganizationCommand, OrganizationState } from '../domain/organization.decider';
import { organizationKeyStream } from '../projections/organizations.projection';

/**
 * An organization, named by its key (`organizationKey`). Exclusive: a command on an organization
 * waits for another one on it between its reservation and its append, so two commands never hold
 * the same reservation under the same owner (the losing one would give back what the winning one keeps).
 */
export const organizationAggregate: AggregateType<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  decider: organizationDecider,
  stream: organizationKeyStream,
  exclusive: true,
};
