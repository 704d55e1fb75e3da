import { resolvePath, takesBareValue } from './attribute-paths';
import type { ResolvedPath, ResourceNames, SchemaNames } from './attribute-paths';
import { matches, parseFilter } from './filter';
import type { Filter, ScimObject } from './filter';

const booleanAttributes = new Set(['active', 'primary']);

function toBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const lowered = value.trim().toLowerCase();
  return lowered === 'true' ? true : lowered === 'false' ? false : value;
}

/** Entra ID sends booleans as strings (`"active": "True"`): read them as booleans, at any depth. */
export function normalizeBooleans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeBooleans);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      booleanAttributes.has(key.toLowerCase()) ? toBoolean(inner) : normalizeBooleans(inner),
    ]),
  );
}

/**
 * Group members sent as bare ids (`"members": ["<id>"]`) are `{ value: id }`, and a member's
 * `displayName` is its `display` (both seen in Microsoft's reference tests).
 */
export function normalizeMembers(value: unknown): unknown {
  const members = Array.isArray(value) ? value : [value];
  return members.map((member) => {
    if (typeof member === 'string') return { value: member };
    if (typeof member !== 'object' || member === null) return member;
    const { displayName, ...rest } = member as ScimObject;
    return displayName === undefined || 'display' in rest ? member : { ...rest, display: displayName };
  });
}

/**
 * A single-valued complex attribute with a `value` (the enterprise `manager`) given as a bare
 * string is its `value`: Entra ID sends the manager's id alone (`"manager": "<id>"`).
 */
function wrapBareValues(object: ScimObject, schema: SchemaNames): ScimObject {
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => {
      const attribute = schema.attributes.get(key.toLowerCase()) ?? null;
      return [key, typeof value === 'string' && takesBareValue(attribute) ? { value } : value];
    }),
  );
}

/** Bare values wrapped in the core attributes and in each extension's object. */
function wrapResourceValues(resource: ScimObject, names: ResourceNames): ScimObject {
  const wrapped = wrapBareValues(resource, names.core);
  for (const [key, value] of Object.entries(wrapped)) {
    const extension = names.extensions.find((schema) => schema.urn.toLowerCase() === key.toLowerCase());
    if (extension && typeof value === 'object' && value !== null && !Array.isArray(value))
      wrapped[key] = wrapBareValues(value as ScimObject, extension);
  }
  return wrapped;
}

/** A resource body as providers send it, in the form the SCIM schemas expect. */
export function normalizeResource(body: ScimObject, names: ResourceNames): ScimObject {
  const normalized = wrapResourceValues(normalizeBooleans(body) as ScimObject, names);
  const membersKey = Object.keys(normalized).find((key) => key.toLowerCase() === 'members');
  if (membersKey && normalized[membersKey] !== undefined && normalized[membersKey] !== null)
    normalized[membersKey] = normalizeMembers(normalized[membersKey]);
  return normalized;
}

/**
 * A PatchOp as providers send it: paths and the keys of a value without path in the schemas'
 * case (Entra ID and RFC 7643 section 2.1), Entra ID's string booleans (`{ "op": "Replace",
 * "path": "active", "value": "False" }`; scimmy already reads capitalised ops and member
 * removal by a value list), bare member ids and manager ids; a missing `schemas` is the PatchOp one.
 */
export function normalizePatch(body: ScimObject, patchOpUrn: string, names: ResourceNames): ScimObject {
  const operationsKey = Object.keys(body).find((key) => key.toLowerCase() === 'operations') ?? 'Operations';
  const operations = Array.isArray(body[operationsKey]) ? (body[operationsKey] as ScimObject[]) : body[operationsKey];
  return {
    schemas: body.schemas ?? [patchOpUrn],
    Operations: Array.isArray(operations) ? operations.map((operation) => normalizeOperation(operation, names)) : operations,
  };
}

/** The value of an operation on a resolved path (the whole resource without one). */
function normalizeValue(value: unknown, target: ResolvedPath | null, names: ResourceNames): unknown {
  if (target === null) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return normalizeBooleans(value);
    const entries = Object.entries(value).map(([key, inner]) => {
      const resolved = resolvePath(key, names);
      return [resolved.path, normalizeValue(inner, resolved, names)];
    });
    return wrapResourceValues(Object.fromEntries(entries) as ScimObject, names);
  }
  const leaf = (target.sub ?? target.attribute?.name ?? target.path.split(/[.:]/).at(-1) ?? '').toLowerCase();
  if (booleanAttributes.has(leaf)) return toBoolean(value);
  if (leaf === 'members') return normalizeMembers(value);
  if (typeof value === 'string' && target.sub === null && target.valueFilter === null && takesBareValue(target.attribute))
    return { value };
  return normalizeBooleans(value);
}

function normalizeOperation(operation: ScimObject, names: ResourceNames): ScimObject {
  if (typeof operation !== 'object' || operation === null) return operation;
  const target = typeof operation.path === 'string' ? resolvePath(operation.path, names) : null;
  const value = operation.value === undefined ? undefined : normalizeValue(operation.value, target, names);
  return { ...operation, ...(target === null ? {} : { path: target.path }), ...(value === undefined ? {} : { value }) };
}

/** `type eq "work" and primary eq true` → `{ type: 'work', primary: true }`; null for any other filter. */
function describedEntry(filter: Filter): ScimObject | null {
  if (filter.op === 'eq' && !filter.attrPath.includes('.') && filter.compValue !== null)
    return { [filter.attrPath]: filter.compValue };
  if (filter.op !== 'and') return null;
  const parts = filter.filters.map(describedEntry);
  return parts.every((part) => part !== null) ? Object.assign({}, ...parts) : null;
}

/**
 * Entra ID adds or replaces a sub-attribute of an entry the user does not have yet (`{ "op":
 * "Add", "path": "phoneNumbers[type eq \"mobile\"].value", "value": "…" }`, `addresses[type eq
 * "work"].formatted`): when no entry matches an `eq` filter, the operation adds the entry the
 * filter describes with that sub-attribute. Other operations are left as they are.
 */
export function addMissingEntries(resource: ScimObject, message: ScimObject, names: ResourceNames): ScimObject {
  if (!Array.isArray(message.Operations)) return message;
  const entries = new Map<string, ScimObject[]>();
  const operations = (message.Operations as ScimObject[]).map((operation) => {
    const op = typeof operation?.op === 'string' ? operation.op.toLowerCase() : '';
    if ((op !== 'add' && op !== 'replace') || typeof operation.path !== 'string') return operation;
    const { attribute, valueFilter, sub } = resolvePath(operation.path, names);
    if (!attribute?.multiValued || valueFilter === null || sub === null) return operation;
    const filter = parseFilter(valueFilter);
    const entry = describedEntry(filter);
    if (entry === null) return operation;
    const stored = resource[attribute.name];
    const current = entries.get(attribute.name) ?? (Array.isArray(stored) ? [...(stored as ScimObject[])] : []);
    entries.set(attribute.name, current);
    if (current.some((item) => typeof item === 'object' && item !== null && matches(item, filter))) return operation;
    const added = { ...entry, [sub]: operation.value };
    current.push(added);
    return { op: 'add', path: attribute.name, value: [added] };
  });
  return { ...message, Operations: operations };
}
