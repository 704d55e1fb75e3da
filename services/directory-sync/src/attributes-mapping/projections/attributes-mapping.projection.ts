import type { AttributesMappingEvent } from '@sesame/contracts';
import type { AggregateViewDefinition } from '@sesame/platform';
import { attributesMappingDecider } from '../domain/attributes-mapping.decider';
import type { AttributesMappingState } from '../domain/attributes-mapping.decider';

export const attributesMappingStreamCategory = 'attributesMapping';

/** `attributes_mapping_v1`: one document per environment that has set its mapping. */
export const attributesMappingView: AggregateViewDefinition<AttributesMappingState, AttributesMappingEvent> = {
  name: 'attributes_mapping',
  version: 1,
  category: attributesMappingStreamCategory,
  decider: attributesMappingDecider,
  isVisible: (state) => state.environment !== null,
};
