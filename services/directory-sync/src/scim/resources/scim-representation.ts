import type { ScimResourceData } from '@sesame/contracts';
import type { ScimObject } from '../protocol/filter';
import { etagOf } from './domain/scim-resource.decider';

export const resourceEndpoint = (kind: ScimResourceData['kind']) => (kind === 'User' ? 'Users' : 'Groups');

/** The SCIM representation of a stored resource: `schemas`, `id`, `externalId`, its attributes, then `meta`. */
export function representation(data: ScimResourceData, baseUrl: string): ScimObject {
  const { schemas, externalId, ...attributes } = data.resource;
  return {
    schemas,
    id: data.id,
    ...(externalId === undefined ? {} : { externalId }),
    ...attributes,
    meta: {
      resourceType: data.kind,
      created: data.created,
      lastModified: data.last_modified,
      location: `${baseUrl}/${resourceEndpoint(data.kind)}/${data.id}`,
      version: etagOf(data.version),
    },
  };
}
