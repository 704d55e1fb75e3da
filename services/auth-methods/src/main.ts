import { join } from 'node:path';
import { loadConfig, natsConnectionOptions } from '@sesame/platform';
import { createMailer } from '@sesame/platform/mail';
import { RpcClient, subscribeToServiceEvents } from '@sesame/platform/messaging';
import { ServiceRuntime, runMain } from '@sesame/platform/runtime';
import { createSmsSender } from '@sesame/platform/sms';
import { authMethodsConfigSchema } from './config';
import { assembleAuthMethods } from './index';
import { organizationDeletionReactor } from './core/organization-deletion/organization-deletion.reactor';
import { ValidationPool } from './methods/sso-saml/saml/validation-pool';

runMain(async () => {
  const config = loadConfig(authMethodsConfigSchema);
  const runtime = await ServiceRuntime.create('auth-methods', config);
  const services = await RpcClient.connect({
    nats: natsConnectionOptions(config, 'auth-methods', `${config.SESAME_PREFIX}.auth-methods.client`),
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
  });
  const samlValidation = new ValidationPool(
    join(__dirname, 'methods/sso-saml/saml/validation-worker.js'),
    config.SESAME_SAML_VALIDATION_THREADS,
  );
  const { signingKeys, breachRange, relays, ssoConnections } = await assembleAuthMethods(runtime, config, {
    rpc: services,
    mailer: createMailer(config, runtime),
    sms: createSmsSender(config, runtime.nc, runtime.logger, runtime.metrics),
    validateResponse: (xml, expected) => samlValidation.validate(xml, expected),
  });
  setInterval(
    () => signingKeys.rotate().catch((error) => runtime.logger.error({ err: error }, 'key rotation failed')),
    60_000,
  ).unref();
  await runtime.start();
  const organizationDeletion = subscribeToServiceEvents({
    nc: runtime.nc,
    prefix: config.SESAME_PREFIX,
    source: 'identity',
    consumer: 'auth-methods-organization-deletion',
    category: 'organization',
    onCommit: organizationDeletionReactor({
      runtime,
      projections: runtime.projections,
      ssoConnections: ssoConnections.view,
      relays: relays.view,
      logger: runtime.logger,
      now: () => new Date(),
    }),
    logger: runtime.logger,
  });
  runtime.onShutdown(() => organizationDeletion.stop());
  runtime.onClose(async () => {
    await Promise.all([services.close(), breachRange?.close(), samlValidation.close()]);
  });
});
