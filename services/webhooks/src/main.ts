import { loadConfig, natsConnectionOptions } from '@sesame/platform';
import { RpcClient } from '@sesame/platform/messaging';
import { ServiceRuntime, runMain } from '@sesame/platform/runtime';
import { webhooksConfigSchema } from './config';
import { assembleWebhooks } from './index';

/** The webhooks service: webhooks (event sourced), their delivery jobs and the dispatcher. */
runMain(async () => {
  const config = loadConfig(webhooksConfigSchema);
  const runtime = await ServiceRuntime.create('webhooks', config);
  const rpc = await RpcClient.connect({
    nats: natsConnectionOptions(config, 'webhooks', `${config.SESAME_PREFIX}.webhooks.client`),
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
  });
  runtime.onClose(() => rpc.close());
  await assembleWebhooks(runtime, config, rpc);
  await runtime.start();
});
