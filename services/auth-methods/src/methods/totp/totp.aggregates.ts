import type { TotpConnectionEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateType } from '@sesame/platform';
import { totpConnectionDecider } from './domain/totp-connection.decider';
import type { TotpConnectionCommand, TotpConnectionState } from './domain/totp-connection.decider';

/** An organization's TOTP connection, named by `totpConnectionKey` (its environment and organization id). */
export const totpConnectionAggregate: AggregateType<TotpConnectionState, TotpConnectionCommand, TotpConnectionEvent> = {
  decider: totpConnectionDecider,
  stream: (key) => streamName('totpConnection', key),
};
