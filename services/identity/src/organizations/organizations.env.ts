import type { OrganizationEvent } from '@sesame/contracts';
import type { AggregateView, CommandHandlerDeps, EventMetadata, RequestContext } from '@sesame/platform';
import type { OrganizationState } from './domain/organization.decider';

/** What the organization handlers need, passed in explicitly. */
export interface OrganizationsEnv {
  commandDeps: CommandHandlerDeps<OrganizationState>;
  metadata(context: RequestContext): EventMetadata;
  view: AggregateView<OrganizationState, OrganizationEvent>;
  now(): Date;
}

export type StoredOrganization = Exclude<OrganizationState, { status: 'empty' }>;
