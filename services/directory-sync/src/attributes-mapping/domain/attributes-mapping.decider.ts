import type { AttributeMapping, AttributesMappingEvent, Environment } from '@sesame/contracts';
import type { Decider } from '@sesame/platform';
import { defaultAttributesMapping } from './default-mapping';

/** The attribute mapping of one environment (the default one until it is set). */
export interface AttributesMappingState {
  environment: Environment | null;
  attributes: AttributeMapping[];
}

export type AttributesMappingCommand = {
  type: 'SetAttributesMapping';
  data: { environment: Environment; attributes: AttributeMapping[]; at: string };
};

const same = (a: AttributeMapping[], b: AttributeMapping[]) => JSON.stringify(a) === JSON.stringify(b);

export const attributesMappingDecider: Decider<AttributesMappingState, AttributesMappingCommand, AttributesMappingEvent> = {
  initialState: () => ({ environment: null, attributes: defaultAttributesMapping }),
  decide(command, state) {
    const { environment, attributes, at } = command.data;
    if (state.environment !== null && same(attributes, state.attributes)) return [];
    return [{ type: 'AttributesMappingChanged', data: { environment, attributes, previous_attributes: state.attributes, at } }];
  },
  evolve(_state, event) {
    return { environment: event.data.environment, attributes: event.data.attributes };
  },
};
