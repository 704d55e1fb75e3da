import { oauthError } from '@sesame/contracts';
import type { TokenRequest } from '@sesame/contracts';
import { failure, hashSecret, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import type { TokenClient } from '../../core/oauth/token-endpoint';
import { relaySessionEnd } from './domain/relay-code.decider';
import type { RelayCodeState } from './domain/relay-code.decider';
import type { RelayDeps } from './relays.deps';

/** `grant_type=relay`: the partner, authenticated with an API key of the relay's environment, exchanges the code. */
export function relayGrant(deps: RelayDeps) {
  return async (request: TokenRequest, context: RequestContext, client: TokenClient | null) => {
    if (!client)
      return failure(oauthError('invalid_client', 'Client authentication failed: the relay grant needs client_secret'));
    if (!request.code) return failure(oauthError('invalid_request', 'code is required'));
    const at = deps.now();
    const { state } = await deps.codes.handle(
      request.code,
      {
        type: 'RedeemRelayCode',
        data: { code_hash: hashSecret(request.code), client, at: at.toISOString() },
      },
      deps.runtime.metadata(context),
    );
    const issued = state.issued as NonNullable<RelayCodeState['issued']>;
    const session = {
      environment: issued.environment,
      organization_domain: issued.partner_domain,
      ...(issued.organization_id ? { organization_id: issued.organization_id } : {}),
      user_id: issued.partner_user_id,
      method: 'relay' as const,
      client_id: client.client_id,
      scope: 'openid email profile',
      nonce: null,
      authenticated_at: Math.floor(at.getTime() / 1_000),
    };
    const options = { confidential: true, sessionExpiresAt: relaySessionEnd(issued, at) };
    return ok(await deps.userTokens.start(session, deps.runtime.metadata(context), options));
  };
}
