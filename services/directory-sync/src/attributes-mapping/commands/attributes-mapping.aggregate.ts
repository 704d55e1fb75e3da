import type { AttributesMappingEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateType } from '@sesame/platform';
import { attributesMappingDecider } from '../domain/attributes-mapping.decider';
import type { AttributesMappingCommand, AttributesMappingState } from '../domain/attributes-mapping.decider';
import { attributesMappingStreamCategory } from '../projections/attributes-mapping.projection';

/** The attribute mapping of an environment, named by the environment. */
export const attributesMappingAggregate: AggregateType<AttributesMappingState, AttributesMappingCommand, AttributesMappingEvent> =
  {
    decider: attributesMappingDecider,
    stream: (environment) => streamName(attributesMappingStreamCategory, environment),
  };
