import type { OperationInput, putAttributesMapping } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy';
import { toAttributesMapping } from '../attributes-mapping.deps';
import type { AttributesMappingDeps } from '../attributes-mapping.deps';

export function putAttributesMappingHandler(deps: AttributesMappingDeps) {
  return async ({ body }: OperationInput<typeof putAttributesMapping>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const { state } = await deps.attributesMappings.handle(
      environment,
      { type: 'SetAttributesMapping', data: { environment, attributes: body.attributes, at: deps.now().toISOString() } },
      deps.metadata(context),
    );
    return ok(toAttributesMapping(environment, state.attributes));
  };
}
