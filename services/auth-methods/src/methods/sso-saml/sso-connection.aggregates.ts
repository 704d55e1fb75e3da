import type { SsoConnectionEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { ssoConnectionDecider } from './domain/sso-connection.decider';
import type { SsoConnectionCommand, SsoConnectionState } from './domain/sso-connection.decider';
import { ssoConnectionStream } from './projections/sso-connections.projection';

/** An SSO connection, named by its stream key (`ssoConnectionKey`, or `ssoConnectionKeyOf` an existing one). */
export const ssoConnectionAggregate: AggregateType<SsoConnectionState, SsoConnectionCommand, SsoConnectionEvent> = {
  decider: ssoConnectionDecider,
  stream: ssoConnectionStream,
};
