import { ServiceRuntime, baseConfigSchema, loadConfig, requireStoreUrls, runMain } from '@sesame/platform';

/** The directory-sync service: boots, joins NATS and answers its health subject; its resources come with their issue. */
runMain(async () => {
  const runtime = await ServiceRuntime.create('directory-sync', loadConfig(baseConfigSchema.superRefine(requireStoreUrls)));
  await runtime.start();
});
