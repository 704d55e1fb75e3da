import { KeyRing, RpcClient, ServiceRuntime, createMailer, createSmsSender, loadConfig, runMain } from '@sesame/platform';
import { registerAuthorizationCodes } from './authorization-codes/authorization-codes.module';
import { authMethodsConfigSchema, issuerOf } from './config';
import { IdentityClient } from './identity/identity-client';
import { Organizations } from './identity/organizations';
import { registerOAuth } from './oauth/oauth.module';
import { BreachRange } from './password/breach-range';
import { registerPassword } from './password/password.module';
import { SigningKeys } from './signing-keys/signing-keys';
import { registerSamlSignIn } from './sso-saml/flows/sign-in.module';
import { registerSingleLogout } from './sso-saml/flows/single-logout.module';
import { registerSsoConnections } from './sso-saml/sso-connections.module';
import { registerTotp } from './totp/totp.module';
import { registerMagicLink } from './magic-link/magic-link.module';
import { registerRelays } from './relays/relays.module';

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
    url: config.SESAME_NATS_URL,
    prefix: config.SESAME_PREFIX,
    timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
    name: `${config.SESAME_PREFIX}.auth-methods.client`,
  });
  const identity = new IdentityClient(services);
  const tokenEndpoint = registerOAuth(runtime, config, signingKeys);
  const { authorizationCodes, userTokens } = registerAuthorizationCodes(runtime, config, {
    signingKeys,
    identity,
    tokenEndpoint,
  });
  const organizations = new Organizations(services);
  const breachRange = config.SESAME_PASSWORD_BREACH_RANGE_URL
    ? new BreachRange(config.SESAME_PASSWORD_BREACH_RANGE_URL, 2_000, runtime.logger)
    : null;
  const mailer = createMailer(config, runtime.nc, runtime.logger);
  registerPassword(runtime, { identity, organizations, keyRing, mailer, authorizationCodes, breachRange });
  registerMagicLink(runtime, { identity, organizations, codes: authorizationCodes, mailer });
  registerRelays(runtime, {
    identity,
    organizations,
    signingKeys,
    userTokens,
    tokenEndpoint,
    issuerOf: (organizationDomain) => issuerOf(config, organizationDomain),
  });
  const publicUrl = config.SESAME_PUBLIC_URL;
  const ssoConnections = registerSsoConnections({ runtime, organizations, keyRing, publicUrl });
  registerSamlSignIn({
    runtime,
    identity,
    keyRing,
    publicUrl,
    findConnection: ssoConnections.find,
    issueCode: (request, metadata) => authorizationCodes.issue({ ...request, method: 'sso' }, metadata),
    challengeTtlMs: 10 * 60_000,
    clockSkewMs: 120_000,
  });
  registerSingleLogout({ runtime, identity, keyRing, publicUrl, findConnection: ssoConnections.find });
  const sms = createSmsSender(config, runtime.nc, runtime.logger);
  registerTotp(runtime, { identity, organizations, keyRing, codes: authorizationCodes, sms });
  await runtime.start();
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(
      signal,
      () =>
        void runtime
          .shutdown(signal)
          .then(() => Promise.all([services.close(), breachRange?.close()]))
          .catch(() => undefined),
    );
});
