import type { Environment, RelayData } from '@sesame/contracts';
import { environmentOf as environmentOfMeta } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { UserTokens } from '../../core/authorization-codes/user-tokens';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import type { TokenEndpoint } from '../../core/oauth/token-endpoint';
import type { SigningKeys } from '../../core/signing-keys/signing-keys';
import type { RelaysView } from './projections/relays.projection';

/** What `registerRelays` is given. */
export interface RelayServices {
  identity: IdentityClient;
  organizations: Organizations;
  signingKeys: Pick<SigningKeys, 'jwks'>;
  userTokens: Pick<UserTokens, 'start'>;
  tokenEndpoint: TokenEndpoint;
  issuerOf(organizationDomain: string): string;
}

/** What the relay handlers share. */
export interface RelayDeps extends RelayServices {
  runtime: ServiceRuntime;
  view: RelaysView;
  now(): Date;
}

/** The platform's `environmentOf`, for the relay handlers that pass their whole request context. */
export const environmentOf = (context: RequestContext): Environment => environmentOfMeta(context.meta);

/** The relay `id` of the API key's environment, or null. */
export async function relayOf(deps: RelayDeps, id: string, environment: Environment): Promise<RelayData | null> {
  const relay = (await deps.view.documents.get(id))?.relay;
  return relay && relay.environment === environment ? relay : null;
}
