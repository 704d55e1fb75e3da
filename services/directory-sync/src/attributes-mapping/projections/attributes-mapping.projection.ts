import type { AttributesMappingEvent, Environment } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { attributesMappingDecider } from '../domain/attributes-mapping.decider';
import type { AttributesMappingState } from '../domain/attributes-mapping.decider';

export const attributesMappingStreamCategory = 'attributesMapping';
export const attributesMappingStream = (environment: Environment) => streamName(attributesMappingStreamCategory, environment);

/** `attributes_mapping_v1`: one document per environment that has set its mapping. */
export const attributesMappingView: AggregateViewDefinition<AttributesMappingState, AttributesMappingEvent> = {
  name: 'attributes_mapping',
  version: 1,
  category: attributesMappingStreamCategory,
  decider: attributesMappingDecider,
  isVisible: (state) => state.environment !== null,
};
