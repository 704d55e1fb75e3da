import type { MagicLinkConnectionEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateType } from '@sesame/platform';
import { magicLinkConnectionDecider } from './domain/magic-link-connection.decider';
import type { MagicLinkConnectionCommand, MagicLinkConnectionState } from './domain/magic-link-connection.decider';

/** An organization's magic-link connection, named by `magicLinkConnectionKey` (its environment and organization id). */
export const magicLinkConnectionAggregate: AggregateType<
  MagicLinkConnectionState,
  MagicLinkConnectionCommand,
  MagicLinkConnectionEvent
> = {
  decider: magicLinkConnectionDecider,
  stream: (key) => streamName('magicLinkConnection', key),
};
