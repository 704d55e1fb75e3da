import { oauthError } from '@sesame/contracts';
import type { RpcReply, Token, TokenRequest } from '@sesame/contracts';
import { failure } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';

export type GrantHandler = (request: TokenRequest, context: RequestContext) => Promise<RpcReply<Token>>;

/**
 * `POST /oauth/token`: dispatches on `grant_type` to the grants registered by each sign-in
 * method (client_credentials here; authorization_code, refresh_token and relay with theirs).
 */
export class TokenEndpoint {
  private readonly grants = new Map<string, GrantHandler>();

  register(grantType: string, handler: GrantHandler): void {
    if (this.grants.has(grantType)) throw new Error(`Grant ${grantType} is already registered`);
    this.grants.set(grantType, handler);
  }

  handle = async ({ body }: { body: TokenRequest }, context: RequestContext): Promise<RpcReply<Token>> => {
    const grant = this.grants.get(body.grant_type);
    if (!grant) return failure(oauthError('unsupported_grant_type', `grant_type ${body.grant_type} is not supported`));
    return grant(body, context);
  };
}
