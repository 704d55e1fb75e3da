import { ServiceRuntime, RpcClient, loadConfig, runMain } from '@sesame/platform';
import { registerAttributesMapping } from './attributes-mapping/attributes-mapping.module';
import { directorySyncConfigSchema } from './config';
import { registerDirectorySyncs } from './directory-syncs/directory-syncs.module';
import { IdentityClient } from './identity-client';

/** The directory-sync service: directory syncs, attribute mapping and the SCIM 2.0 resources they provision. */
runMain(async () => {
  const config = loadConfig(directorySyncConfigSchema);
  const runtime = await ServiceRuntime.create('directory-sync', config);
  const rpc = await RpcClient.connect({
    url: config.SESAME_NATS_URL,
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
    name: `${config.SESAME_PREFIX}.directory-sync.client`,
  });
  const identity = new IdentityClient(rpc);
  registerDirectorySyncs(runtime, config, identity);
  registerAttributesMapping(runtime);
  await runtime.start();
});
