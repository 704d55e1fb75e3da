import { oauthError } from '@sesame/contracts';
import type { TokenRequest } from '@sesame/contracts';
import { failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { GrantHandler, TokenClient } from '../oauth/token-endpoint';
import type { AuthorizationCodes } from './authorization-codes';
import type { UserTokens } from './user-tokens';

type Metadata = ServiceRuntime['metadata'];

/** `grant_type=authorization_code`: a one-time code from a sign-in for the user's tokens. */
export function authorizationCodeGrant(codes: AuthorizationCodes, metadata: Metadata): GrantHandler {
  return async (request: TokenRequest, context: RequestContext, client: TokenClient | null) => {
    if (!request.code) return failure(oauthError('invalid_request', 'code is required'));
    return ok(await codes.exchange({ ...request, code: request.code }, client, metadata(context)));
  };
}

/** `grant_type=refresh_token`: the next refresh token of the family, with fresh access and ID tokens. */
export function refreshTokenGrant(tokens: UserTokens, metadata: Metadata): GrantHandler {
  return async (request: TokenRequest, context: RequestContext, client: TokenClient | null) => {
    if (!request.refresh_token) return failure(oauthError('invalid_request', 'refresh_token is required'));
    return ok(await tokens.refresh(request.refresh_token, client, request.client_id, metadata(context)));
  };
}
