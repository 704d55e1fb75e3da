import { oauthError } from '@sesame/contracts';
import type { RpcReply, Token, TokenRequest } from '@sesame/contracts';
import { failure } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';

export type GrantHandler = (request: TokenRequest, context: RequestContext) => Promise<RpcReply<Token>>;

/** Whether `secret` is the secret of the active client `clientId`. */
export type ClientAuthenticator = (clientId: string, secret: string) => Promise<boolean>;

/**
 * `POST /oauth/token`: dispatches on `grant_type` to the grants registered by each sign-in
 * method (client_credentials here; authorization_code, refresh_token and relay with theirs).
 */
export class TokenEndpoint {
  private readonly grants = new Map<string, GrantHandler>();
  private authenticator?: ClientAuthenticator;

  /**
   * Grants other than `client_credentials` (which authenticates by itself) accept a confidential
   * client: when `client_secret` is sent, `client_id` and the secret must match an active API key.
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
    if (body.grant_type !== 'client_credentials' && body.client_secret !== undefined && this.authenticator) {
      const authenticated = body.client_id !== undefined && (await this.authenticator(body.client_id, body.client_secret));
      if (!authenticated) return failure(oauthError('invalid_client', 'Client authentication failed'));
    }
    return grant(body, context);
  };
}
