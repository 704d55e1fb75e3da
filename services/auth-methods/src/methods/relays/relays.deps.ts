import type { Environment, RelayCodeEvent, RelayData, RelayEvent } from '@sesame/contracts';
import type { Aggregate } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { UserTokens } from '../../core/authorization-codes/user-tokens';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import type { TokenEndpoint } from '../../core/oauth/token-endpoint';
import type { SigningKeys } from '../../core/signing-keys/signing-keys';
import type { RelayCodeCommand, RelayCodeState } from './domain/relay-code.decider';
import type { RelayCommand, RelayState } from './domain/relay.decider';
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
  relays: Aggregate<RelayState, RelayCommand, RelayEvent>;
  codes: Aggregate<RelayCodeState, RelayCodeCommand, RelayCodeEvent>;
  view: RelaysView;
  now(): Date;
}

/** The relay `id` of the API key's environment, or null. */
export async function relayOf(deps: RelayDeps, id: string, environment: Environment): Promise<RelayData | null> {
  const relay = (await deps.view.documents.get(id))?.relay;
  return relay && relay.environment === environment ? relay : null;
}
