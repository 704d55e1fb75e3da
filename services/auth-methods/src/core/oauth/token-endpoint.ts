import { oauthError } from '@sesame/contracts';
import type { Environment, RpcReply, Token, TokenRequest } from '@sesame/contracts';
import { actingFor, failure } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';

/** A client that proved its API key at the token endpoint: with its secret, or with its API access token. */
export interface TokenClient {
  client_id: string;
  environment: Environment;
  /**
   * Proved with an API access token (`Authorization: Bearer`, checked by the gateway) rather than
   * the secret: accepted for the codes of its own sign-ins only (`authorization_code`).
   */
  accessToken?: true;
}

/** `client` is the authenticated client, or null when the request sent no `client_secret`. */
export type GrantHandler = (
  request: TokenRequest,
  context: RequestContext,
  client: TokenClient | null,
) => Promise<RpcReply<Token>>;

/** The active API key `clientId` when `secret` is its secret, else null. */
export type ClientAuthenticator = (clientId: string, secret: string) => Promise<TokenClient | null>;

export const clientAuthenticationFailed = () => oauthError('invalid_client', 'Client authentication failed');

/**
 * `POST /oauth/token`: dispatches on `grant_type` to the grants registered by each sign-in
 * method (client_credentials here; authorization_code, refresh_token and relay with theirs).
 */
export class TokenEndpoint {
  private readonly grants = new Map<string, GrantHandler>();
  private authenticator?: ClientAuthenticator;

  /**
   * Grants other than `client_credentials` (which authenticates by itself) receive the client
   * that sent `client_secret` (the gateway turns HTTP Basic into the body fields), checked here
   * first: a wrong secret is `invalid_client` whatever the grant. Each grant decides whether it
   * needs one (RFC 6749 sections 2.3.1 and 3.2.1).
   */
  authenticateClientsWith(authenticator: ClientAuthenticator): void {
    this.authenticator = authenticator;
  }

  register(grantType: string, handler: GrantHandler): void {
    if (this.grants.has(grantType)) throw new Error(`Grant ${grantType} is already registered`);
    this.grants.set(grantType, handler);
  }

  handle = async ({ body }: { body: TokenRequest }, context: RequestContext): Promise<RpcReply<Token>> => {
    const grant = this.grants.get(body.grant_type);
    if (!grant) return failure(oauthError('unsupported_grant_type', `grant_type ${body.grant_type} is not supported`));
    if (body.grant_type === 'client_credentials') return grant(body, context, null);
    if (body.client_secret === undefined) return this.withAccessTokenClient(grant, body, context);
    const client =
      body.client_id !== undefined && this.authenticator ? await this.authenticator(body.client_id, body.client_secret) : null;
    if (!client) return failure(clientAuthenticationFailed());
    // The API key its secret proved is the actor of what the grant records.
    return grant(body, actingFor(context, { type: 'api_key', id: client.client_id }), client);
  };

  /** The API key the gateway authenticated with its access token (`meta.clientId`), or none. */
  private withAccessTokenClient(grant: GrantHandler, body: TokenRequest, context: RequestContext) {
    const { clientId, environment } = context.meta;
    if (clientId === undefined || environment === undefined) return grant(body, context, null);
    if (body.grant_type !== 'authorization_code')
      return Promise.resolve(
        failure(
          oauthError(
            'invalid_client',
            'Client authentication failed: an API access token authenticates the authorization_code grant only; send client_secret',
          ),
        ),
      );
    return grant(body, context, { client_id: clientId, environment, accessToken: true });
  }
}
