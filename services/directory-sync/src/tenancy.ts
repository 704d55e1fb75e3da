import { catalogueError } from '@sesame/contracts';
import type { Environment, RpcMeta } from '@sesame/contracts';
import { fail } from '@sesame/platform';

/** The environment of the API key; operations without one are refused as unauthorized. */
export function environmentOf(meta: RpcMeta): Environment {
  if (!meta.environment) fail(catalogueError('unauthorized'));
  return meta.environment;
}
