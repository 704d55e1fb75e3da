import type { DirectorySyncEvent, Environment } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { directorySyncDecider } from '../domain/directory-sync.decider';
import type { DirectorySyncState } from '../domain/directory-sync.decider';

export const directorySyncStreamCategory = 'directorySync';
/**
 * The key of an organization's directory sync: its id in its environment
 * (`directorySync-<environment>:<organization_id>`). One recorded before directory syncs were keyed
 * by organization is under its domain instead (`directorySyncLegacyKey`): see `directorySyncOf`.
 */
export const directorySyncKey = (environment: Environment, organizationId: string) => `${environment}:${organizationId}`;
/** `directorySync-<environment>.<organization domain>`: where directory syncs were kept before they were keyed by organization. */
export const directorySyncLegacyKey = (environment: Environment, organizationDomain: string) =>
  `${environment}.${organizationDomain}`;
export const directorySyncKeyStream = (key: string) => streamName(directorySyncStreamCategory, key);

/** `directory_syncs_v1`: one document per organization and environment (by key), found by id for SCIM requests. */
export const directorySyncsView: AggregateViewDefinition<DirectorySyncState, DirectorySyncEvent> = {
  name: 'directory_syncs',
  version: 1,
  category: directorySyncStreamCategory,
  decider: directorySyncDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [['directory_sync.id']],
};
