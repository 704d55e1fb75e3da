import { catalogueError, fieldError, subjects } from '@sesame/contracts';
import type { Environment, IdentityRpc, IdentityRpcRequest, IdentityRpcResponse, RpcMeta } from '@sesame/contracts';
import { DomainError, RpcUnavailableError, fail } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform';

/**
 * The identity subjects this service calls (users, metakeys, redirect URIs), typed by
 * `identityRpc`. An error answer is thrown as the DomainError it carries, so a handler answers
 * it as is; no answer at all is 503.
 */
export class IdentityClient {
  constructor(private readonly rpc: RpcClient) {}

  async call<S extends keyof IdentityRpc>(
    subject: S,
    input: IdentityRpcRequest<S>,
    meta: RpcMeta,
  ): Promise<IdentityRpcResponse<S>> {
    let reply;
    try {
      reply = await this.rpc.request<IdentityRpcResponse<S>>(subject, { meta, input });
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new DomainError(catalogueError('service_unavailable'));
      throw error;
    }
    if (!reply.ok) throw new DomainError(reply.error);
    return reply.body;
  }

  /**
   * The redirect URI a sign-in may send the user back to: `url` when it is registered in the
   * environment, the default one when `url` is absent; otherwise a 422 on `redirect_uri`.
   */
  async resolveRedirectUri(environment: Environment, url: string | undefined, meta: RpcMeta): Promise<string> {
    const check = await this.call(subjects.identity.redirectUris.check, { environment, url: url ?? '-' }, meta);
    if (url !== undefined && check.registered) return url;
    if (url === undefined && check.default_url) return check.default_url;
    return fail(fieldError('redirect_uri', url === undefined ? "can't be blank" : 'is not a registered redirect URI'));
  }
}
