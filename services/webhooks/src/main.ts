import { KeyRing, ServiceRuntime, loadConfig, runMain } from '@sesame/platform';
import { webhooksConfigSchema } from './config';
import { startDelivery } from './delivery/delivery';
import { JobIndex } from './jobs/job-index';
import { JobStore } from './jobs/job-store';
import { registerWebhookEvents } from './jobs/webhook-events.module';
import { registerWebhooks } from './webhooks/webhooks.module';

/** The webhooks service: webhooks (event sourced), their delivery jobs and the dispatcher. */
runMain(async () => {
  const config = loadConfig(webhooksConfigSchema);
  const runtime = await ServiceRuntime.create('webhooks', config);
  const keyRing = new KeyRing(config.SESAME_ENCRYPTION_KEYS);
  const view = registerWebhooks(runtime, { keyRing, keyOverlapMs: config.SESAME_WEBHOOK_KEY_OVERLAP_MS });
  const store = await JobStore.open(runtime.nc, config.SESAME_PREFIX, config.SESAME_JETSTREAM_REPLICAS);
  const index = new JobIndex();
  registerWebhookEvents(runtime, { view, store, index });
  await startDelivery(runtime, config, { view, store, index, keyRing });
  await runtime.start();
});
