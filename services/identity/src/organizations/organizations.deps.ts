import type { OrganizationEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, RequestContext } from '@sesame/platform';
import type { OrganizationCommand, OrganizationState } from './domain/organization.decider';

/** What the organization handlers need, passed in explicitly. */
export interface OrganizationsDeps {
  organizations: Aggregate<OrganizationState, OrganizationCommand, OrganizationEvent>;
  metadata(context: RequestContext): EventMetadata;
  view: AggregateView<OrganizationState, OrganizationEvent>;
  now(): Date;
}

export type StoredOrganization = Exclude<OrganizationState, { status: 'empty' }>;
