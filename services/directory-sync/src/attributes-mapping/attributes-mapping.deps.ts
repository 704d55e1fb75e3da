import type { AttributeMapping, AttributesMapping, AttributesMappingEvent, Environment } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, RequestContext } from '@sesame/platform';
import type { AttributesMappingCommand, AttributesMappingState } from './domain/attributes-mapping.decider';

/** The attribute mapping of an environment, as the SCIM handlers read it. */
export type MappingOf = (environment: Environment) => Promise<AttributeMapping[]>;

/** What the attribute mapping handlers need, passed in explicitly. */
export interface AttributesMappingDeps {
  attributesMappings: Aggregate<AttributesMappingState, AttributesMappingCommand, AttributesMappingEvent>;
  view: AggregateView<AttributesMappingState, AttributesMappingEvent>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  now(): Date;
}

export const toAttributesMapping = (environment: Environment, attributes: AttributeMapping[]): AttributesMapping => ({
  __type__: 'AttributesMapping',
  __environment__: environment,
  attributes,
});
