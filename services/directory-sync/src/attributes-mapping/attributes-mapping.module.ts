import { catalogueError, getAttributesMapping, putAttributesMapping } from '@sesame/contracts';
import type { AttributeMapping, AttributesMapping, AttributesMappingEvent, Environment, RpcMeta } from '@sesame/contracts';
import { AggregateView, fail, handleCommand, ok } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { attributesMappingDecider } from './domain/attributes-mapping.decider';
import type { AttributesMappingState } from './domain/attributes-mapping.decider';
import { attributesMappingStream, attributesMappingView } from './projections/attributes-mapping.projection';

/** The attribute mapping of an environment, as the SCIM handlers read it. */
export type MappingOf = (environment: Environment) => Promise<AttributeMapping[]>;

function environmentOf(meta: RpcMeta): Environment {
  if (!meta.environment) fail(catalogueError('unauthorized'));
  return meta.environment;
}

const toResource = (environment: Environment, attributes: AttributeMapping[]): AttributesMapping => ({
  __type__: 'AttributesMapping',
  __environment__: environment,
  attributes,
});

/** Attribute mapping: one aggregate per environment, GET and PUT. */
export function registerAttributesMapping(runtime: ServiceRuntime): MappingOf {
  const view = runtime.projections.register(
    new AggregateView<AttributesMappingState, AttributesMappingEvent>(
      attributesMappingView,
      runtime.readModels,
      runtime.eventStore,
    ),
  );
  const mappingOf: MappingOf = async (environment) =>
    ((await view.documents.get(environment)) ?? attributesMappingDecider.initialState()).attributes;

  runtime.router.operation(getAttributesMapping, async (_input, context) => {
    const environment = environmentOf(context.meta);
    return ok(toResource(environment, await mappingOf(environment)));
  });
  runtime.router.operation(putAttributesMapping, async ({ body }, context) => {
    const environment = environmentOf(context.meta);
    const { state } = await handleCommand(
      runtime.commandDeps<AttributesMappingState>(),
      attributesMappingDecider,
      attributesMappingStream(environment),
      { type: 'SetAttributesMapping', data: { environment, attributes: body.attributes, at: new Date().toISOString() } },
      runtime.metadata(context),
    );
    return ok(toResource(environment, state.attributes));
  });
  return mappingOf;
}
