import { ServiceRuntime, baseConfigSchema, loadConfig, requireStoreUrls, runMain } from '@sesame/platform';

/** The webhooks service: boots, joins NATS and answers its health subject; its resources come with their issue. */
runMain(async () => {
  const runtime = await ServiceRuntime.create('webhooks', loadConfig(baseConfigSchema.superRefine(requireStoreUrls)));
  await runtime.start();
});
