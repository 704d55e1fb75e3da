import { catalogueError } from '@sesame/contracts';
import type { OperationInput, getDirectorySync } from '@sesame/contracts';
import { fail, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy';
import { toDirectorySync } from '../directory-sync.resource';
import type { DirectorySyncsDeps } from '../directory-syncs.deps';
import { directorySyncKey } from '../projections/directory-syncs.projection';

export function getDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params }: OperationInput<typeof getDirectorySync>, context: RequestContext) => {
    const document = await deps.view.documents.get(directorySyncKey(environmentOf(context.meta), params.org_domain));
    if (!document || document.status !== 'active') fail(catalogueError('resource_not_found'));
    return ok(toDirectorySync(deps.config, document.directory_sync));
  };
}
