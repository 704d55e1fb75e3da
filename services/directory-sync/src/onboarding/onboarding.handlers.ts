import { catalogueError } from '@sesame/contracts';
import type {
  DirectorySyncStatus,
  directorySyncTenantRequestSchema,
  setUpDirectorySyncRequestSchema,
  z,
} from '@sesame/contracts';
import { DomainError, fail, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { changeDirectory, createDirectory } from '../directory-syncs/commands/directory-sync.handlers';
import { toDirectorySync } from '../directory-syncs/directory-sync.resource';
import type { DirectorySyncsDeps } from '../directory-syncs/directory-syncs.deps';
import { directoryOwner } from '../directory-syncs/directory-sync-owner';
import { findDirectorySync } from '../directory-syncs/queries/directory-sync.queries';
import type { ScimActivity } from '../scim-activity/scim-activity.module';
import type { ScimResourceStore } from '../scim/resources/scim-resource-store';

type TenantInput = z.infer<typeof directorySyncTenantRequestSchema>;

export interface OnboardingDirectorySyncDeps {
  directories: DirectorySyncsDeps;
  activity: ScimActivity['view'];
  resources: Pick<ScimResourceStore, 'count'>;
}

/** The invitation's organization, as identity names it (404 when it has none live). */
const ownerOf = (deps: OnboardingDirectorySyncDeps, input: TenantInput, context: Pick<RequestContext, 'meta'>) =>
  directoryOwner(
    deps.directories,
    { organization_domain: input.organization_domain, environment: input.environment },
    context.meta.correlationId,
  );

async function findDirectory(deps: OnboardingDirectorySyncDeps, input: TenantInput, context: Pick<RequestContext, 'meta'>) {
  return findDirectorySync(deps.directories, await ownerOf(deps, input, context));
}

/** The directory sync of the invitation's organization and environment, or null; never its token's value. */
export function findOnboardingDirectorySyncHandler(deps: OnboardingDirectorySyncDeps) {
  return async (input: TenantInput, context: RequestContext) => {
    const directory = await findDirectory(deps, input, context);
    return ok({ directory_sync: directory ? toDirectorySync(deps.directories.config, directory) : null });
  };
}

/**
 * Created (active, its token's value answered once) when absent; else its provider changed, no
 * token value. Two first set-ups at once (two tabs): the one that loses the creation changes the
 * provider of the other's.
 */
export function setUpOnboardingDirectorySyncHandler(deps: OnboardingDirectorySyncDeps) {
  return async (input: z.infer<typeof setUpDirectorySyncRequestSchema>, context: RequestContext) => {
    const { provider_type } = input;
    const owner = await ownerOf(deps, input, context);
    const change = async () => ok(await changeDirectory(deps.directories, owner, { provider_type, rotate: false }, context));
    if (await findDirectorySync(deps.directories, owner)) return change();
    try {
      return ok(await createDirectory(deps.directories, owner, { provider_type, active: true }, context));
    } catch (error) {
      const lostTheRace =
        error instanceof DomainError && error.error.kind === 'error' && error.error.code === 'directory_sync_already_exists';
      if (lostTheRace) return change();
      throw error;
    }
  };
}

/** A new token, its value answered once; the previous one stops working at once. */
export function rotateOnboardingDirectorySyncTokenHandler(deps: OnboardingDirectorySyncDeps) {
  return async (input: TenantInput, context: RequestContext) => {
    return ok(await changeDirectory(deps.directories, await ownerOf(deps, input, context), { rotate: true }, context));
  };
}

/** What the SCIM client did: last request, users and groups it provisions, last refused request. */
export function onboardingDirectorySyncStatusHandler(deps: OnboardingDirectorySyncDeps) {
  return async (input: TenantInput, context: RequestContext) => {
    const directory = await findDirectory(deps, input, context);
    if (!directory) fail(catalogueError('resource_not_found'));
    const [activity, users, groups] = await Promise.all([
      deps.activity.documents.get(directory.id),
      deps.resources.count(directory.id, 'User'),
      deps.resources.count(directory.id, 'Group'),
    ]);
    const recorded = activity?.status === 'recorded' ? activity : null;
    const status: DirectorySyncStatus = {
      directory_sync_id: directory.id,
      last_request_at: recorded?.last_request_at ?? null,
      users_provisioned: users,
      groups_provisioned: groups,
      last_error: recorded?.last_error ?? null,
    };
    return ok(status);
  };
}
