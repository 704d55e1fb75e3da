import type { RelayCodeEvent, RelayEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { relayCodeDecider } from './domain/relay-code.decider';
import type { RelayCodeCommand, RelayCodeState } from './domain/relay-code.decider';
import { relayDecider } from './domain/relay.decider';
import type { RelayCommand, RelayState } from './domain/relay.decider';
import { relayCodeStream, relayStream } from './projections/relays.projection';

/** A relay, named by its id (a uuid). */
export const relayAggregate: AggregateType<RelayState, RelayCommand, RelayEvent> = {
  decider: relayDecider,
  stream: relayStream,
};

/** A one-time relay code, named by the code itself (its stream by the code's SHA-256). */
export const relayCodeAggregate: AggregateType<RelayCodeState, RelayCodeCommand, RelayCodeEvent> = {
  decider: relayCodeDecider,
  stream: relayCodeStream,
};
