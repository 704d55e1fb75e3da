import { catalogueError } from '@sesame/contracts';
import type { OperationInput, getDirectorySync } from '@sesame/contracts';
import { fail, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy';
import { toDirectorySync } from '../directory-sync.resource';
import { directoryOwner, directorySyncOf } from '../directory-sync-owner';
import type { DirectoryOwner } from '../directory-sync-owner';
import type { DirectorySyncsDeps } from '../directory-syncs.deps';

/** The directory sync of an organization in the read model (`directorySyncOf`), or null. */
export async function findDirectorySync(deps: Pick<DirectorySyncsDeps, 'view'>, owner: DirectoryOwner) {
  const { found } = await directorySyncOf(
    owner,
    (key) => deps.view.documents.get(key),
    (document) => document ?? undefined,
  );
  return found?.status === 'active' ? found.directory_sync : null;
}

export function getDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params }: OperationInput<typeof getDirectorySync>, context: RequestContext) => {
    const tenant = { organization_domain: params.org_domain, environment: environmentOf(context.meta) };
    const directory = await findDirectorySync(deps, await directoryOwner(deps, tenant, context.meta.correlationId));
    if (!directory) fail(catalogueError('resource_not_found'));
    return ok(toDirectorySync(deps.config, directory));
  };
}
