import type { AddressInfo } from 'node:net';
import { createLogger, loadConfig, requireNatsCredentials } from '@sesame/platform';
import { exitWhenIdle, runMain, startTracing } from '@sesame/platform/runtime';
import { gatewayConfigSchema } from './config';
import { createGateway } from './gateway';

runMain(async () => {
  const config = loadConfig(gatewayConfigSchema.superRefine(requireNatsCredentials));
  const logger = createLogger('gateway', config.SESAME_LOG_LEVEL);
  const tracing = startTracing('gateway');
  const gateway = await createGateway(config, logger);
  await gateway.management.listen(config.SESAME_MANAGEMENT_PORT, config.SESAME_HTTP_HOST);
  await gateway.app.listen(config.SESAME_HTTP_PORT, config.SESAME_HTTP_HOST);
  const managementPort = (gateway.management.getHttpServer().address() as AddressInfo).port;
  logger.info({ port: config.SESAME_HTTP_PORT, managementPort, url: config.SESAME_PUBLIC_URL }, 'gateway started');

  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'gateway stopping');
      const deadline = setTimeout(() => process.exit(1), config.SESAME_SHUTDOWN_GRACE_MS + 5_000);
      deadline.unref();
      gateway
        .stop()
        .then(() => tracing.shutdown())
        .then(
          () => {
            logger.info('gateway stopped');
            exitWhenIdle(logger, 'gateway');
          },
          (error: unknown) => logger.error({ err: error }, 'error while stopping'),
        );
    });
});
