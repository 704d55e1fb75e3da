import type { SsoConnectionEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { ssoConnectionDecider } from '../domain/sso-connection.decider';
import type { SsoConnectionState } from '../domain/sso-connection.decider';

export const ssoConnectionStreamCategory = 'ssoConnection';
/** The stream of the connection of key `key` (`ssoConnectionKeyOf`). */
export const ssoConnectionStream = (key: string) => streamName(ssoConnectionStreamCategory, key);

/**
 * `sso_connections_v2`: one document per connection, keyed by its stream key (its organization's id
 * in its environment; its `sp_id` for a connection created before): the deletion of an organization
 * removes its own document, never that of a later organization of the same domain. Looked up by `sp_id`.
 */
export const ssoConnectionsView: AggregateViewDefinition<SsoConnectionState, SsoConnectionEvent> = {
  name: 'sso_connections',
  version: 2,
  category: ssoConnectionStreamCategory,
  decider: ssoConnectionDecider,
  isVisible: (state) => state.status === 'present',
  indexes: [['environment'], ['sp_id']],
};
