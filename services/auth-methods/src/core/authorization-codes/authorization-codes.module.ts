import type { ServiceRuntime } from '@sesame/platform/runtime';
import { audienceOf, issuerOf } from '../../config';
import type { AuthMethodsConfig } from '../../config';
import type { IdentityClient } from '../identity/identity-client';
import type { TokenEndpoint } from '../oauth/token-endpoint';
import type { SigningKeys } from '../signing-keys/signing-keys';
import { AuthorizationCodes } from './authorization-codes';
import { authorizationCodeGrant, refreshTokenGrant } from './user-grants';
import { UserTokens } from './user-tokens';
import type { UserTokensDeps } from './user-tokens';

export interface SignInDeps {
  signingKeys: SigningKeys;
  identity: IdentityClient;
  tokenEndpoint: TokenEndpoint;
  stillAllowsUnregistered: UserTokensDeps['stillAllowsUnregistered'];
}

/** Authorization codes and user tokens, with their grants on the token endpoint. */
export function registerAuthorizationCodes(
  runtime: ServiceRuntime,
  config: AuthMethodsConfig,
  deps: SignInDeps,
): { authorizationCodes: AuthorizationCodes; userTokens: UserTokens } {
  const now = () => new Date();
  const userTokens = new UserTokens({
    commandDeps: runtime.commandDeps(),
    signingKeys: deps.signingKeys,
    identity: deps.identity,
    issuerOf: (organizationDomain) => issuerOf(config, organizationDomain),
    defaultAudience: audienceOf(config),
    accessTokenTtlSeconds: config.SESAME_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: config.SESAME_REFRESH_TOKEN_TTL_SECONDS,
    now,
    stillAllowsUnregistered: deps.stillAllowsUnregistered,
  });
  const authorizationCodes = new AuthorizationCodes({
    commandDeps: runtime.commandDeps(),
    failureCommandDeps: runtime.commandDeps(),
    tokens: userTokens,
    ttlSeconds: config.SESAME_AUTHORIZATION_CODE_TTL_SECONDS,
    now,
    metrics: runtime.metrics,
  });
  const metadata = (context: Parameters<ServiceRuntime['metadata']>[0]) => runtime.metadata(context);
  deps.tokenEndpoint.register('authorization_code', authorizationCodeGrant(authorizationCodes, metadata));
  deps.tokenEndpoint.register('refresh_token', refreshTokenGrant(userTokens, metadata));
  return { authorizationCodes, userTokens };
}
