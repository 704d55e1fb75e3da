import { oauthError } from '@sesame/contracts';
import type { RpcInput, RpcMeta } from '@sesame/contracts';
import type { Authenticator } from '../auth/authenticator';
import { ApiError } from './api-error';

const clientAuthenticationFailed = () => new ApiError(oauthError('invalid_client', 'Client authentication failed'));

/**
 * Token endpoint: an API key may authenticate with its API access token as `Authorization:
 * Bearer` instead of its secret, as Cryptr's Kotlin SDK exchanges sign-in codes. Considered only
 * when the body sends no `client_secret` (HTTP Basic has become one). The token is checked as the
 * management API checks it (signature, issuer, API audience, an API-key token, unexpired, its key
 * not revoked); any failure, or a body `client_id` naming another client, answers the same
 * `invalid_client` as a wrong secret. The key becomes `meta.clientId` and `meta.environment`
 * (only the gateway sets them) and the body's `client_id`; the service decides which grant and
 * which code it may serve.
 */
export async function withBearerClient(
  input: RpcInput,
  authorization: string | undefined,
  authenticator: Pick<Authenticator, 'authenticate'>,
  meta: RpcMeta,
): Promise<RpcInput> {
  const body = input.body as Record<string, unknown>;
  if (!/^Bearer(\s|$)/i.test(authorization ?? '') || body.client_secret !== undefined) return input;
  const principal = await authenticator.authenticate(authorization, undefined).catch((error: unknown) => {
    if (error instanceof ApiError && error.error.kind === 'error' && error.error.code === 'unauthorized')
      throw clientAuthenticationFailed();
    throw error;
  });
  if (body.client_id !== undefined && body.client_id !== principal.clientId) throw clientAuthenticationFailed();
  meta.clientId = principal.clientId;
  meta.environment = principal.environment;
  return { ...input, body: { ...body, client_id: principal.clientId } };
}
