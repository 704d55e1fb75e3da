import { loadConfig, natsConnectionOptions } from '@sesame/platform';
import { RpcClient, subscribeToServiceEvents } from '@sesame/platform/messaging';
import { ServiceRuntime, runMain } from '@sesame/platform/runtime';
import { directorySyncConfigSchema } from './config';
import { organizationDeletionReactor } from './directory-syncs/organization-deletion.reactor';
import { assembleDirectorySync } from './index';

/** The directory-sync service: directory syncs, attribute mapping and the SCIM 2.0 resources they provision. */
runMain(async () => {
  const config = loadConfig(directorySyncConfigSchema);
  const runtime = await ServiceRuntime.create('directory-sync', config);
  const rpc = await RpcClient.connect({
    nats: natsConnectionOptions(config, 'directory-sync', `${config.SESAME_PREFIX}.directory-sync.client`),
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
  });
  runtime.onClose(() => rpc.close());
  assembleDirectorySync(runtime, config, rpc);
  await runtime.start();
  const organizationDeletion = subscribeToServiceEvents({
    nc: runtime.nc,
    prefix: config.SESAME_PREFIX,
    source: 'identity',
    consumer: 'directory-sync-organization-deletion',
    category: 'organization',
    onCommit: organizationDeletionReactor({ runtime, logger: runtime.logger, now: () => new Date() }),
    logger: runtime.logger,
  });
  runtime.onShutdown(() => organizationDeletion.stop());
});
