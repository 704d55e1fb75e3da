import { fieldError, subjects } from '@sesame/contracts';
import type { Environment, RpcMeta } from '@sesame/contracts';
import { TypedRpcClient, fail } from '@sesame/platform';

/**
 * The identity subjects this service calls (users, metakeys, redirect URIs): the platform's typed
 * client (`call`, typed and checked by the contracts' `rpcTable`; a refusal is thrown as the
 * `RpcRefusal` it carries, so a handler answers it as is; no answer at all is 503), with the
 * redirect URI rule sign-ins share.
 */
export class IdentityClient extends TypedRpcClient {
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
