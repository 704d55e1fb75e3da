import type { RpcClient } from '@sesame/platform/messaging';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { registerAttributesMapping } from './attributes-mapping/attributes-mapping.module';
import type { DirectorySyncConfig } from './config';
import { registerDirectorySyncs } from './directory-syncs/directory-syncs.module';
import { IdentityClient } from './identity-client';
import { registerScim } from './scim/scim.module';

export { directorySyncConfigSchema } from './config';
export type { DirectorySyncConfig } from './config';

/**
 * The service's handlers and projections on a runtime (directory syncs, attribute mapping, SCIM),
 * calling identity through `rpc`: what `main` starts, and what the service specifications run.
 */
export function assembleDirectorySync(runtime: ServiceRuntime, config: DirectorySyncConfig, rpc: RpcClient): void {
  const identity = new IdentityClient(rpc);
  const directories = registerDirectorySyncs(runtime, config, identity);
  const mappingOf = registerAttributesMapping(runtime);
  registerScim(runtime, config, directories, identity, mappingOf);
}
