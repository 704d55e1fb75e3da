import type { ScimResourceData, ScimResourceKind } from '@sesame/contracts';
import { scimSchemaUrns } from '../../protocol/scim-schemas';
import type { Filter, ScimObject } from '../../protocol/filter';

/**
 * The attributes providers look resources up by before they create or change one (Okta and Entra
 * ID by `externalId`, `userName` and the work email, groups by `displayName`), per kind. Each is
 * indexed in the read model, lower-cased: the index only narrows a search to a few candidates,
 * the filter itself then decides (case-exact or not), so the candidates must hold every match.
 */
const indexedAttributes: Record<ScimResourceKind, readonly string[]> = {
  User: ['externalid', 'username', 'emails.value', 'displayname'],
  Group: ['externalid', 'displayname'],
};

export const lookupKey = (directorySyncId: string, kind: ScimResourceKind, attribute: string, value: string) =>
  `${directorySyncId}|${kind}|${attribute}|${value.toLowerCase()}`;

const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : []);

/** The values of an indexed attribute in a resource (several for `emails.value`). */
function valuesOf(resource: ScimObject, attribute: string): string[] {
  const field = (name: string) => resource[Object.keys(resource).find((key) => key.toLowerCase() === name) ?? ''];
  if (attribute !== 'emails.value') return strings(field(attribute));
  const emails = field('emails');
  return Array.isArray(emails) ? emails.flatMap((email) => strings((email as ScimObject | null)?.value)) : [];
}

/** The lookup keys of a stored resource: one per value of each indexed attribute of its kind. */
export function lookupKeysOf(data: Pick<ScimResourceData, 'directory_sync_id' | 'kind' | 'resource'>): string[] {
  const keys = indexedAttributes[data.kind].flatMap((attribute) =>
    valuesOf(data.resource, attribute).map((value) => lookupKey(data.directory_sync_id, data.kind, attribute, value)),
  );
  return [...new Set(keys)];
}

/** An attribute path without its core schema URN, lower-cased (`urn:…:User:userName` is `username`). */
function attributeOf(path: string, kind: ScimResourceKind): string {
  const lowered = path.toLowerCase();
  const urn = `${scimSchemaUrns[kind].toLowerCase()}:`;
  return lowered.startsWith(urn) ? lowered.slice(urn.length) : lowered;
}

/**
 * The lookup key that narrows a filter to the resources it can match, or null when no indexed
 * equality holds for all of them (the directory is then read whole). An `eq` on an indexed
 * attribute, one inside `and` (every match satisfies it), or Entra ID's `emails[type eq "work" and
 * value eq "…"]`.
 */
export function lookupKeyOf(filter: Filter, directorySyncId: string, kind: ScimResourceKind): string | null {
  if (filter.op === 'and') {
    for (const inner of filter.filters) {
      const key = lookupKeyOf(inner, directorySyncId, kind);
      if (key !== null) return key;
    }
    return null;
  }
  if (filter.op === '[]') {
    const email = kind === 'User' && attributeOf(filter.attrPath, kind) === 'emails' ? emailValueIn(filter.valFilter) : null;
    return email === null ? null : lookupKey(directorySyncId, kind, 'emails.value', email);
  }
  if (filter.op !== 'eq' || typeof filter.compValue !== 'string') return null;
  const attribute = attributeOf(filter.attrPath, kind);
  return indexedAttributes[kind].includes(attribute) ? lookupKey(directorySyncId, kind, attribute, filter.compValue) : null;
}

/** The `value eq "…"` every entry matching a value filter of `emails` has. */
function emailValueIn(filter: Filter): string | null {
  if (filter.op === 'and') return filter.filters.map(emailValueIn).find((value) => value !== null) ?? null;
  const exact = filter.op === 'eq' && filter.attrPath.toLowerCase() === 'value' && typeof filter.compValue === 'string';
  return exact ? (filter.compValue as string) : null;
}
