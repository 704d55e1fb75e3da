import { KeyRing, systemActor } from '@sesame/platform';
import type { Mailer, SmsSender } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform/messaging';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { registerAuthorizationCodes } from './core/authorization-codes/authorization-codes.module';
import { issuerOf } from './config';
import type { AuthMethodsConfig } from './config';
import { IdentityClient } from './core/identity/identity-client';
import { Organizations } from './core/identity/organizations';
import { MailTemplates } from './methods/magic-link/mail-templates';
import { registerMagicLink } from './methods/magic-link/magic-link.module';
import { registerOAuth } from './core/oauth/oauth.module';
import { BreachRange } from './methods/password/breach-range';
import { registerPassword } from './methods/password/password.module';
import { registerRelays } from './methods/relays/relays.module';
import { countSignIns } from './core/sign-in-metrics';
import { SigningKeys } from './core/signing-keys/signing-keys';
import { spIdOf } from './methods/sso-saml/domain/sp-values';
import { registerSamlSignIn } from './methods/sso-saml/flows/sign-in.module';
import { registerSingleLogout } from './methods/sso-saml/flows/single-logout.module';
import { validateSamlResponse } from './methods/sso-saml/saml/response-validator';
import type { ResponseExpectations, ValidationResult } from './methods/sso-saml/saml/response-validator';
import { registerSsoConnections } from './methods/sso-saml/sso-connections.module';
import { registerTotp } from './methods/totp/totp.module';

export * from './core/api-keys/domain/api-key.decider';
export * from './core/signing-keys/signing-key-set.decider';
export { TokenEndpoint } from './core/oauth/token-endpoint';
export { authMethodsConfigSchema } from './config';
export type { AuthMethodsConfig } from './config';

const day = 86_400_000;

/** What the handlers use besides the runtime: the other services, the mail and SMS ports, SAML validation. */
export interface AuthMethodsPorts {
  rpc: RpcClient;
  mailer: Mailer;
  sms: SmsSender;
  /** The worker pool in a process; in-process validation by default. */
  validateResponse?: (xml: string, expected: ResponseExpectations) => Promise<ValidationResult>;
}

/**
 * The service's handlers and projections on a runtime (OAuth, codes, password, magic link, relays,
 * SAML, TOTP), with the signing keys rotated once: what `main` starts, and what the service
 * specifications run. Answers what `main` keeps running or closing, and the views the
 * organization-deletion reactor reads.
 */
export async function assembleAuthMethods(runtime: ServiceRuntime, config: AuthMethodsConfig, ports: AuthMethodsPorts) {
  const keyRing = new KeyRing(config.SESAME_ENCRYPTION_KEYS);
  const signingKeys = new SigningKeys(
    runtime.eventStore,
    keyRing,
    {
      rotateAfterMs: config.SESAME_SIGNING_KEY_ROTATION_DAYS * day,
      overlapMs: config.SESAME_ACCESS_TOKEN_TTL_SECONDS * 1_000 + 60_000,
    },
    runtime.logger,
    () => runtime.metadata({ meta: { correlationId: 'signing-key-rotation' } }, systemActor('auth-methods:signing-key-rotation')),
  );
  await signingKeys.rotate();
  const identity = new IdentityClient(ports.rpc);
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
  const organizations = new Organizations(ports.rpc);
  const breachRange = config.SESAME_PASSWORD_BREACH_RANGE_URL
    ? new BreachRange(config.SESAME_PASSWORD_BREACH_RANGE_URL, 2_000, runtime.logger)
    : null;
  const { mailer, sms } = ports;
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
    validateResponse: ports.validateResponse ?? (async (xml, expected) => validateSamlResponse(xml, expected)),
    now: () => new Date(),
  });
  registerSingleLogout({ runtime, identity, keyRing, publicUrl, findConnection: ssoConnections.find, now: () => new Date() });
  const totp = registerTotp(runtime, { identity, organizations, keyRing, codes: authorizationCodes, sms });
  return { signingKeys, breachRange, magicLink, totp, relays, ssoConnections };
}
