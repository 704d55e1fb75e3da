import { getAttributesMapping, putAttributesMapping } from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { AttributesMappingDeps, MappingOf } from './attributes-mapping.deps';
import { attributesMappingAggregate } from './commands/attributes-mapping.aggregate';
import { putAttributesMappingHandler } from './commands/attributes-mapping.handlers';
import { attributesMappingView } from './projections/attributes-mapping.projection';
import { getAttributesMappingHandler, mappingOf } from './queries/attributes-mapping.queries';

/** Attribute mapping: one aggregate per environment, GET and PUT; answers how the SCIM handlers read it. */
export function registerAttributesMapping(runtime: ServiceRuntime): MappingOf {
  const deps: AttributesMappingDeps = {
    attributesMappings: runtime.aggregate(attributesMappingAggregate),
    view: runtime.projections.register(new AggregateView(attributesMappingView, runtime.readModels, runtime.eventStore)),
    metadata: (context) => runtime.metadata(context),
    now: () => new Date(),
  };
  runtime.router.operation(getAttributesMapping, getAttributesMappingHandler(deps));
  runtime.router.operation(putAttributesMapping, putAttributesMappingHandler(deps));
  return mappingOf(deps);
}
