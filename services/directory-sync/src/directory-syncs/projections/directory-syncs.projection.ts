import type { DirectorySyncEvent, Environment } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { directorySyncDecider } from '../domain/directory-sync.decider';
import type { DirectorySyncState } from '../domain/directory-sync.decider';

export const directorySyncStreamCategory = 'directorySync';
/** `directorySync-<environment>.<organization domain>` */
export const directorySyncKey = (environment: Environment, organizationDomain: string) => `${environment}.${organizationDomain}`;
export const directorySyncKeyStream = (key: string) => streamName(directorySyncStreamCategory, key);

/** `directory_syncs_v1`: one document per organization and environment, found by id for SCIM requests. */
export const directorySyncsView: AggregateViewDefinition<DirectorySyncState, DirectorySyncEvent> = {
  name: 'directory_syncs',
  version: 1,
  category: directorySyncStreamCategory,
  decider: directorySyncDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [['directory_sync.id']],
};
