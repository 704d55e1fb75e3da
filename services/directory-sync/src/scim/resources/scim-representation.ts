import type { ScimResourceData } from '@sesame/contracts';
import type { ScimObject } from '../protocol/filter';
import { etagOf } from './domain/scim-resource.decider';

export const resourceEndpoint = (kind: ScimResourceData['kind']) => (kind === 'User' ? 'Users' : 'Groups');

/**
 * The SCIM representation of a stored resource: `schemas`, `id`, `externalId`, its attributes, a
 * user's `groups` (derived, see user-groups.ts; left out when empty), then `meta`.
 */
export function representation(data: ScimResourceData, baseUrl: string, groups: ScimObject[] = []): ScimObject {
  // `groups` is never stored (readOnly); a value kept from before PATCH refused it is not served.
  const { schemas, externalId, groups: _stored, ...attributes } = data.resource;
  return {
    schemas,
    id: data.id,
    ...(externalId === undefined ? {} : { externalId }),
    ...attributes,
    ...(data.kind === 'User' && groups.length > 0 ? { groups } : {}),
    meta: {
      resourceType: data.kind,
      created: data.created,
      lastModified: data.last_modified,
      location: `${baseUrl}/${resourceEndpoint(data.kind)}/${data.id}`,
      version: etagOf(data.version),
    },
  };
}
