import { catalogueError } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { DirectorySyncsDeps } from './directory-syncs.deps';
import type { DirectorySyncState } from './domain/directory-sync.decider';
import { directorySyncKey, directorySyncLegacyKey } from './projections/directory-syncs.projection';

/** The organization a directory sync is asked for: its domain in an environment, and its id as identity answers it. */
export interface DirectoryOwner {
  organization_id: string;
  organization_domain: string;
  environment: Environment;
}

/** The live organization of `organization_domain` in `environment`, as identity knows it (404 otherwise). */
export async function directoryOwner(
  deps: Pick<DirectorySyncsDeps, 'identity'>,
  tenant: { organization_domain: string; environment: Environment },
  correlationId: string,
): Promise<DirectoryOwner> {
  const organizationId = await deps.identity.organizationIdOf(tenant.organization_domain, tenant.environment, correlationId);
  if (!organizationId) fail(catalogueError('resource_not_found'));
  return { organization_id: organizationId, ...tenant };
}

/** A directory sync recorded before directory syncs were keyed by organization is this organization's unless it names another. */
const legacyOwnedBy = (state: DirectorySyncState | undefined, organizationId: string) =>
  state?.status === 'active' && (state.directory_sync.organization_id ?? organizationId) === organizationId;

/**
 * Where an organization's directory sync is, read by `read` (its stream, or the read model): the
 * organization's own key, or, while that one holds none, the key its domain named before directory
 * syncs were keyed by organization, unless another organization (of the same domain, since
 * deleted) set that one. Both are read at once. A later organization of the same domain never
 * sees the deleted one's directory sync, nor its SCIM token, even before the deletion arrives.
 */
export async function directorySyncOf<Found>(
  owner: DirectoryOwner,
  read: (key: string) => Promise<Found>,
  stateOf: (found: Found) => DirectorySyncState | undefined,
): Promise<{ key: string; found: Found }> {
  const key = directorySyncKey(owner.environment, owner.organization_id);
  const legacyKey = directorySyncLegacyKey(owner.environment, owner.organization_domain);
  const [own, legacy] = await Promise.all([read(key), read(legacyKey)]);
  return stateOf(own)?.status !== 'active' && legacyOwnedBy(stateOf(legacy), owner.organization_id)
    ? { key: legacyKey, found: legacy }
    : { key, found: own };
}
