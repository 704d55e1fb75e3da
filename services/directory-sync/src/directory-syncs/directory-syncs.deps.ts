import type { DirectorySyncEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, RequestContext } from '@sesame/platform';
import type { DirectorySyncConfig } from '../config';
import type { IdentityClient } from '../identity-client';
import type { DirectorySyncCommand, DirectorySyncState } from './domain/directory-sync.decider';

export type DirectorySyncsView = AggregateView<DirectorySyncState, DirectorySyncEvent>;

/** What the directory sync handlers need, passed in explicitly. */
export interface DirectorySyncsDeps {
  directorySyncs: Aggregate<DirectorySyncState, DirectorySyncCommand, DirectorySyncEvent>;
  view: DirectorySyncsView;
  /** Identity, asked for the id of the organization a directory sync is kept under (`directoryOwner`). */
  identity: Pick<IdentityClient, 'organizationIdOf'>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  config: DirectorySyncConfig;
  now(): Date;
}
