import type { RelayEvent } from '@sesame/contracts';
import { hashSecret, streamName } from '@sesame/platform';
import type { AggregateView, AggregateViewDefinition } from '@sesame/platform';
import { relayDecider } from '../domain/relay.decider';
import type { RelayState } from '../domain/relay.decider';

export const relayStream = (id: string) => streamName('relay', id);
/** Stream of a relay code: named by the code's SHA-256, never by the code. */
export const relayCodeStream = (code: string) => streamName('relayCode', hashSecret(code));

/** `relays_v2`: one document per relay that exists (v2: with when its source organizations were set). */
export const relaysView: AggregateViewDefinition<RelayState, RelayEvent> = {
  name: 'relays',
  version: 2,
  category: 'relay',
  decider: relayDecider,
  isVisible: (state) => state.relay !== null,
  indexes: [['relay.environment']],
};

export type RelaysView = AggregateView<RelayState, RelayEvent>;
