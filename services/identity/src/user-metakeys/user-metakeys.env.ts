import type { UserMetakeyEvent } from '@sesame/contracts';
import type { AggregateView, CommandHandlerDeps, EventMetadata, EventStore, RequestContext } from '@sesame/platform';
import type { UserMetakeyState } from './domain/user-metakey.decider';

export interface UserMetakeysEnv {
  commandDeps: CommandHandlerDeps<UserMetakeyState>;
  eventStore: EventStore;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  view: AggregateView<UserMetakeyState, UserMetakeyEvent>;
  now(): Date;
}

export type StoredUserMetakey = Exclude<UserMetakeyState, { status: 'empty' }>;
