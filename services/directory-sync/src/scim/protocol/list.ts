import type { ScimListQuery } from '@sesame/contracts';
import { selectAttributes } from './attributes';
import { valuesAt } from './filter';
import type { ScimObject } from './filter';

export const listResponseUrn = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** `count` when the client sends none, and the largest page (ServiceProviderConfig `filter.maxResults`). */
export const defaultCount = 100;
export const maxResults = 1_000;

function sortKey(resource: ScimObject, sortBy: string): string | number | boolean | null {
  const value = valuesAt(resource, sortBy)[0];
  if (typeof value === 'string') return value.toLowerCase();
  return typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

/** RFC 7644 section 3.4.2.4: resources without a value sort last in ascending order. */
export function sortResources(
  resources: ScimObject[],
  sortBy: string,
  order: 'ascending' | 'descending' = 'ascending',
): ScimObject[] {
  const direction = order === 'descending' ? -1 : 1;
  const keyed = resources.map((resource) => ({ resource, key: sortKey(resource, sortBy) }));
  keyed.sort((a, b) => {
    if (a.key === b.key) return 0;
    if (a.key === null) return direction;
    if (b.key === null) return -direction;
    return (a.key < b.key ? -1 : 1) * direction;
  });
  return keyed.map((entry) => entry.resource);
}

/** Sorts, pages (1-based `startIndex`, RFC 7644 section 3.4.2.4) and selects attributes of matching resources. */
export function listResponse(matching: ScimObject[], query: ScimListQuery): ScimObject {
  const sorted = query.sortBy ? sortResources(matching, query.sortBy, query.sortOrder) : matching;
  const startIndex = Math.max(query.startIndex ?? 1, 1);
  const count = Math.min(Math.max(query.count ?? defaultCount, 0), maxResults);
  const page = sorted.slice(startIndex - 1, startIndex - 1 + count);
  return {
    schemas: [listResponseUrn],
    totalResults: matching.length,
    startIndex,
    itemsPerPage: page.length,
    Resources: page.map((resource) => selectAttributes(resource, query.attributes, query.excludedAttributes)),
  };
}
