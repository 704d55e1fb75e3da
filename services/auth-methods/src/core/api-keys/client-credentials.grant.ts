import { oauthError } from '@sesame/contracts';
import type { ApiKeyEvent, TokenRequest } from '@sesame/contracts';
import { Aggregate, failure, hashSecret, ok, safeEqual, streamName } from '@sesame/platform';
import type { AggregateView, EventStore } from '@sesame/platform';
import { signToken } from '../oauth/access-token';
import type { SigningKeys } from '../signing-keys/signing-keys';
import { apiKeyDecider } from './domain/api-key.decider';
import type { ApiKeyState } from './domain/api-key.decider';
import { apiKeyStreamCategory } from './projections/api-keys.projection';

export interface ClientCredentialsDeps {
  view: AggregateView<ApiKeyState, ApiKeyEvent>;
  eventStore: EventStore;
  signingKeys: SigningKeys;
  issuer: string;
  audience: string;
  tenant: string;
  ttlSeconds: number;
}

const unknownClientHash = hashSecret('no such client');
const authenticationFailed = () => failure(oauthError('invalid_client', 'Client authentication failed'));
/** The message of a token asked for another audience than the API's (RFC 8707 `invalid_target`). */
export const unknownAudienceMessage = 'The requested audience is not the audience of this API: leave audience out';

/** The active API key `clientId` when `secret` is its secret (compared in constant time), else null. */
export async function authenticateClient(
  deps: Pick<ClientCredentialsDeps, 'view' | 'eventStore'>,
  clientId: string,
  secret: string,
): Promise<Exclude<ApiKeyState, { status: 'empty' }> | null> {
  const key = await findKey(deps, clientId);
  const matches = safeEqual(hashSecret(secret), key.status === 'empty' ? unknownClientHash : key.secret_hash);
  return matches && key.status === 'active' ? (key as Exclude<ApiKeyState, { status: 'empty' }>) : null;
}

/** An API key's access token: client id and secret in, RS256 JWT out. */
export function clientCredentialsGrant(deps: ClientCredentialsDeps) {
  return async (request: TokenRequest) => {
    const { client_id: clientId, client_secret: secret } = request;
    if (!clientId || !secret) return authenticationFailed();
    const key = await authenticateClient(deps, clientId, secret);
    if (!key) return authenticationFailed();

    // Only our API's audience: a token for another one would be a Sesame-signed token any relying
    // party trusting our JWKS could mistake for one issued for it.
    if (request.audience !== undefined && request.audience !== deps.audience)
      return failure(oauthError('invalid_target', unknownAudienceMessage));
    const requested = request.scope?.split(/\s+/).filter(Boolean);
    if (requested && !requested.every((scope) => key.scopes.includes(scope)))
      return failure(oauthError('invalid_scope', 'The requested scope exceeds the scopes of this API key'));
    const scopes = requested ?? key.scopes;
    const accessToken = await signToken(
      {
        issuer: deps.issuer,
        audience: deps.audience,
        subject: key.client_id,
        kind: 'api_key',
        tenant: deps.tenant,
        clientId: key.client_id,
        environment: key.environment,
        scopes,
        ttlSeconds: deps.ttlSeconds,
      },
      await deps.signingKeys.current(),
    );
    return ok({ access_token: accessToken, expires_in: deps.ttlSeconds, scope: scopes.join(' '), token_type: 'Bearer' as const });
  };
}

/** The read model, or the stream itself when the key is newer than the projection (created by the CLI). */
async function findKey(deps: Pick<ClientCredentialsDeps, 'view' | 'eventStore'>, clientId: string): Promise<ApiKeyState> {
  const document = await deps.view.documents.get(clientId);
  if (document) return document;
  if (!/^[0-9a-f-]{36}$/i.test(clientId)) return { status: 'empty' };
  const keys = new Aggregate(
    { eventStore: deps.eventStore },
    { decider: apiKeyDecider, stream: (id) => streamName(apiKeyStreamCategory, id) },
  );
  return (await keys.load(clientId)).state;
}
