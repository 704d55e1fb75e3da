import type { SsoConnectionEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { ssoConnectionDecider } from '../domain/sso-connection.decider';
import type { SsoConnectionState } from '../domain/sso-connection.decider';

export const ssoConnectionStreamCategory = 'ssoConnection';
export const ssoConnectionStream = (spId: string) => streamName(ssoConnectionStreamCategory, spId);

/** `sso_connections_v1`: one document per connection, keyed by `sp_id`. */
export const ssoConnectionsView: AggregateViewDefinition<SsoConnectionState, SsoConnectionEvent> = {
  name: 'sso_connections',
  version: 1,
  category: ssoConnectionStreamCategory,
  decider: ssoConnectionDecider,
  isVisible: (state) => state.status === 'present',
  indexes: [['environment']],
};
