import type { Environment, MagicLinkConnectionEvent } from '@sesame/contracts';
import type { AggregateView, AggregateViewDefinition } from '@sesame/platform';
import { magicLinkConnectionDecider } from '../domain/magic-link-connection.decider';
import type { MagicLinkConnectionState } from '../domain/magic-link-connection.decider';

export const magicLinkConnectionKey = (environment: Environment, organizationId: string) => `${environment}:${organizationId}`;

/** `magic_link_connections_v2`: one document per organization and environment that has a connection. */
export const magicLinkConnectionsView: AggregateViewDefinition<MagicLinkConnectionState, MagicLinkConnectionEvent> = {
  name: 'magic_link_connections',
  version: 2,
  category: 'magicLinkConnection',
  decider: magicLinkConnectionDecider,
  isVisible: (state) => state.connection !== null,
};

export type MagicLinkConnectionsView = AggregateView<MagicLinkConnectionState, MagicLinkConnectionEvent>;
