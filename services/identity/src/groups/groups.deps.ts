import type { GroupEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, RequestContext } from '@sesame/platform';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import type { UsersDeps } from '../users/users.deps';
import type { GroupCommand, GroupState } from './domain/group.decider';

/** What the group handlers need, passed in explicitly. */
export interface GroupsDeps {
  groups: Aggregate<GroupState, GroupCommand, GroupEvent>;
  view: AggregateView<GroupState, GroupEvent>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  organizations: Pick<OrganizationsDeps, 'view' | 'organizations'>;
  /** Members must be users of the group's organization and environment. */
  users: Pick<UsersDeps, 'view'>;
  now(): Date;
}
