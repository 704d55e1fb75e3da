import type { OperationInput, getAttributesMapping } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy';
import { toAttributesMapping } from '../attributes-mapping.deps';
import type { AttributesMappingDeps, MappingOf } from '../attributes-mapping.deps';
import { attributesMappingDecider } from '../domain/attributes-mapping.decider';

/** The mapping of an environment: the one it set, or the default one. */
export const mappingOf =
  (deps: Pick<AttributesMappingDeps, 'view'>): MappingOf =>
  async (environment) =>
    ((await deps.view.documents.get(environment)) ?? attributesMappingDecider.initialState()).attributes;

export function getAttributesMappingHandler(deps: AttributesMappingDeps) {
  const mapping = mappingOf(deps);
  return async (_input: OperationInput<typeof getAttributesMapping>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    return ok(toAttributesMapping(environment, await mapping(environment)));
  };
}
