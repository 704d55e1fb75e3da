import { join } from 'node:path';
import { KeyRing, loadConfig, natsConnectionOptions } from '@sesame/platform';
import { createMailer } from '@sesame/platform/mail';
import { RpcClient, subscribeToServiceEvents } from '@sesame/platform/messaging';
import { ServiceRuntime, runMain } from '@sesame/platform/runtime';
import { createSmsSender } from '@sesame/platform/sms';
import { registerAuthorizationCodes } from './core/authorization-codes/authorization-codes.module';
import { authMethodsConfigSchema, issuerOf } from './config';
import { IdentityClient } from './core/identity/identity-client';
import { Organizations } from './core/identity/organizations';
import { registerOAuth } from './core/oauth/oauth.module';
import { BreachRange } from './methods/password/breach-range';
import { registerPassword } from './methods/password/password.module';
import { SigningKeys } from './core/signing-keys/signing-keys';
import { registerSamlSignIn } from './methods/sso-saml/flows/sign-in.module';
import { ValidationPool } from './methods/sso-saml/saml/validation-pool';
import { registerSingleLogout } from './methods/sso-saml/flows/single-logout.module';
import { registerSsoConnections } from './methods/sso-saml/sso-connections.module';
import { spIdOf } from './methods/sso-saml/domain/sp-values';
import { registerTotp } from './methods/totp/totp.module';
import { MailTemplates } from './methods/magic-link/mail-templates';
import { registerMagicLink } from './methods/magic-link/magic-link.module';
import { registerRelays } from './methods/relays/relays.module';
import { organizationDeletionReactor } from './core/organization-deletion/organization-deletion.reactor';
import { countSignIns } from './core/sign-in-metrics';

const day = 86_400_000;

runMain(async () => {
  const config = loadConfig(authMethodsConfigSchema);
  const runtime = await ServiceRuntime.create('auth-methods', config);
  const keyRing = new KeyRing(config.SESAME_ENCRYPTION_KEYS);
  const signingKeys = new SigningKeys(
    runtime.eventStore,
    keyRing,
    {
      rotateAfterMs: config.SESAME_SIGNING_KEY_ROTATION_DAYS * day,
      overlapMs: config.SESAME_ACCESS_TOKEN_TTL_SECONDS * 1_000 + 60_000,
    },
    runtime.logger,
    () => runtime.metadata({ meta: { correlationId: 'signing-key-rotation' } }, 'auth-methods'),
  );
  await signingKeys.rotate();
  setInterval(
    () => signingKeys.rotate().catch((error) => runtime.logger.error({ err: error }, 'key rotation failed')),
    60_000,
  ).unref();
  const services = await RpcClient.connect({
    nats: natsConnectionOptions(config, 'auth-methods', `${config.SESAME_PREFIX}.auth-methods.client`),
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
  });
  const identity = new IdentityClient(services);
  const tokenEndpoint = registerOAuth(runtime, config, signingKeys);
  countSignIns(runtime.router, runtime.metrics);
  const { authorizationCodes, userTokens } = registerAuthorizationCodes(runtime, config, {
    signingKeys,
    identity,
    tokenEndpoint,
    // Read when a token is refreshed, long after start-up: the connections are registered below.
    stillAllowsUnregistered: async (session, subject) => {
      const connection = await ssoConnections.find(spIdOf(session.organization_domain, session.environment));
      return (
        connection?.id === subject.sso_connection_id &&
        connection.settings.active &&
        connection.settings.users_access_policy === 'unregistered_users_allowed'
      );
    },
  });
  const organizations = new Organizations(services);
  const breachRange = config.SESAME_PASSWORD_BREACH_RANGE_URL
    ? new BreachRange(config.SESAME_PASSWORD_BREACH_RANGE_URL, 2_000, runtime.logger)
    : null;
  const mailer = createMailer(config, runtime);
  registerPassword(runtime, { identity, organizations, keyRing, mailer, authorizationCodes, breachRange });
  const templates = new MailTemplates(config.SESAME_MAIL_TEMPLATES_DIR);
  const magicLink = registerMagicLink(runtime, { identity, organizations, codes: authorizationCodes, mailer, templates });
  const relays = registerRelays(runtime, {
    identity,
    organizations,
    signingKeys,
    userTokens,
    tokenEndpoint,
    issuerOf: (organizationDomain) => issuerOf(config, organizationDomain),
  });
  const publicUrl = config.SESAME_PUBLIC_URL;
  const samlValidation = new ValidationPool(
    join(__dirname, 'methods/sso-saml/saml/validation-worker.js'),
    config.SESAME_SAML_VALIDATION_THREADS,
  );
  const ssoConnections = registerSsoConnections({ runtime, organizations, keyRing, publicUrl });
  registerSamlSignIn({
    runtime,
    identity,
    organizations,
    keyRing,
    publicUrl,
    findConnection: ssoConnections.find,
    issueCode: (request, metadata) => authorizationCodes.issue({ ...request, method: 'sso' }, metadata),
    challengeTtlMs: 10 * 60_000,
    clockSkewMs: 120_000,
    validateResponse: (xml, expected) => samlValidation.validate(xml, expected),
    now: () => new Date(),
  });
  registerSingleLogout({ runtime, identity, keyRing, publicUrl, findConnection: ssoConnections.find, now: () => new Date() });
  const sms = createSmsSender(config, runtime.nc, runtime.logger, runtime.metrics);
  const totp = registerTotp(runtime, { identity, organizations, keyRing, codes: authorizationCodes, sms });
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
      magicLinkConnections: magicLink.view,
      totpConnections: totp.connections,
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
