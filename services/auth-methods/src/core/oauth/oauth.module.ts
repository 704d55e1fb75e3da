import { getJwks, issueToken } from '@sesame/contracts';
import { AggregateView, ok } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { authenticateClient, clientCredentialsGrant } from '../api-keys/client-credentials.grant';
import { apiKeysView } from '../api-keys/projections/api-keys.projection';
import { audienceOf, issuerOf } from '../../config';
import type { AuthMethodsConfig } from '../../config';
import type { SigningKeys } from '../signing-keys/signing-keys';
import { TokenEndpoint } from './token-endpoint';

/** The token endpoint with the client-credentials grant, and the JWKS. */
export function registerOAuth(runtime: ServiceRuntime, config: AuthMethodsConfig, signingKeys: SigningKeys): TokenEndpoint {
  const apiKeys = runtime.projections.register(new AggregateView(apiKeysView, runtime.readModels, runtime.eventStore));
  const tokens = new TokenEndpoint();
  tokens.register(
    'client_credentials',
    clientCredentialsGrant({
      view: apiKeys,
      eventStore: runtime.eventStore,
      signingKeys,
      issuer: issuerOf(config),
      audience: audienceOf(config),
      tenant: config.SESAME_TENANT,
      ttlSeconds: config.SESAME_ACCESS_TOKEN_TTL_SECONDS,
    }),
  );
  tokens.authenticateClientsWith(async (clientId, secret) => {
    const key = await authenticateClient({ view: apiKeys, eventStore: runtime.eventStore }, clientId, secret);
    return key ? { client_id: key.client_id, environment: key.environment } : null;
  });
  runtime.router.operation(issueToken, tokens.handle);
  runtime.router.operation(getJwks, async () => ok(await signingKeys.jwks()));
  return tokens;
}
