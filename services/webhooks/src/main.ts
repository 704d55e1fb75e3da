import { KeyRing, ServiceRuntime, loadConfig, runMain } from '@sesame/platform';
import { webhooksConfigSchema } from './config';
import { registerWebhooks } from './webhooks/webhooks.module';

/** The webhooks service: webhooks (event sourced) and the delivery of their events. */
runMain(async () => {
  const config = loadConfig(webhooksConfigSchema);
  const runtime = await ServiceRuntime.create('webhooks', config);
  registerWebhooks(runtime, {
    keyRing: new KeyRing(config.SESAME_ENCRYPTION_KEYS),
    keyOverlapMs: config.SESAME_WEBHOOK_KEY_OVERLAP_MS,
  });
  await runtime.start();
});
