import type { UserMetakeyEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, RequestContext } from '@sesame/platform';
import type { UserMetakeyCommand, UserMetakeyState } from './domain/user-metakey.decider';

export interface UserMetakeysDeps {
  metakeys: Aggregate<UserMetakeyState, UserMetakeyCommand, UserMetakeyEvent>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  view: AggregateView<UserMetakeyState, UserMetakeyEvent>;
  now(): Date;
}

export type StoredUserMetakey = Exclude<UserMetakeyState, { status: 'empty' }>;
