import type { DirectorySyncData, RpcMeta } from '@sesame/contracts';
import { verifySecret } from '@sesame/platform';
import type { DirectorySyncsView } from '../directory-syncs/directory-syncs.deps';
import { scimFail } from './protocol/scim-error';

/**
 * The directory sync a SCIM request is for, if the bearer token is its own (compared in
 * constant time against the stored hash): 401 otherwise, without telling whether the directory
 * exists; 403 when the directory sync is inactive.
 */
export async function authenticateDirectory(
  view: DirectorySyncsView,
  meta: RpcMeta,
  directoryId: string,
): Promise<DirectorySyncData> {
  const [document] = await view.documents.find({ 'directory_sync.id': directoryId }, { limit: 1 });
  const directory = document?.status === 'active' ? document.directory_sync : null;
  const token = meta.scim?.bearerToken;
  if (!directory || !token || !verifySecret(token, directory.token.hash))
    scimFail(401, 'Authentication failed: the bearer token is not the one of this directory sync');
  if (!directory.active) scimFail(403, 'The directory sync is inactive');
  return directory;
}
