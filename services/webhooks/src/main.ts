import { KeyRing, loadConfig, natsConnectionOptions } from '@sesame/platform';
import { RpcClient } from '@sesame/platform/messaging';
import { ServiceRuntime, runMain } from '@sesame/platform/runtime';
import { webhooksConfigSchema } from './config';
import { startDelivery } from './delivery/delivery';
import { JobIndex } from './jobs/job-index';
import { JobStore } from './jobs/job-store';
import { registerWebhookEvents } from './jobs/webhook-events.module';
import { Organizations } from './webhooks/organizations';
import { registerWebhooks } from './webhooks/webhooks.module';

/** The webhooks service: webhooks (event sourced), their delivery jobs and the dispatcher. */
runMain(async () => {
  const config = loadConfig(webhooksConfigSchema);
  const runtime = await ServiceRuntime.create('webhooks', config);
  const keyRing = new KeyRing(config.SESAME_ENCRYPTION_KEYS);
  const rpc = await RpcClient.connect({
    nats: natsConnectionOptions(config, 'webhooks', `${config.SESAME_PREFIX}.webhooks.client`),
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
  });
  runtime.onClose(() => rpc.close());
  const organizations = new Organizations(rpc);
  const view = registerWebhooks(runtime, { keyRing, keyOverlapMs: config.SESAME_WEBHOOK_KEY_OVERLAP_MS, organizations });
  const store = await JobStore.open(runtime.nc, config.SESAME_PREFIX, config.SESAME_JETSTREAM_REPLICAS);
  const index = new JobIndex();
  registerWebhookEvents(runtime, { view, store, index, now: () => new Date() });
  await startDelivery(runtime, config, { view, store, index, keyRing });
  await runtime.start();
});
