import type { UserEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, EventStore, RequestContext } from '@sesame/platform';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import type { UserMetakeysDeps } from '../user-metakeys/user-metakeys.deps';
import type { UserCommand, UserState } from './domain/user.decider';
import type { UserLimits } from './plan-limit/user-limits';

/** What the user handlers need, passed in explicitly. */
export interface UsersDeps {
  users: Aggregate<UserState, UserCommand, UserEvent>;
  eventStore: EventStore;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  view: AggregateView<UserState, UserEvent>;
  organizations: Pick<OrganizationsDeps, 'view' | 'organizations'>;
  metakeys: Pick<UserMetakeysDeps, 'metakeys' | 'view'>;
  /** The plan's limits on the number of users (deployment settings). */
  limits: UserLimits;
  now(): Date;
}
