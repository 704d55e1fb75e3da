import type { ScimObject } from './filter';

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

/** A resource body as providers send it, in the form the SCIM schemas expect. */
export function normalizeResource(body: ScimObject): ScimObject {
  const normalized = normalizeBooleans(body) as ScimObject;
  const membersKey = Object.keys(normalized).find((key) => key.toLowerCase() === 'members');
  if (membersKey && normalized[membersKey] !== undefined && normalized[membersKey] !== null)
    normalized[membersKey] = normalizeMembers(normalized[membersKey]);
  return normalized;
}

/**
 * A PatchOp as providers send it: Entra ID's string booleans (`{ "op": "Replace", "path":
 * "active", "value": "False" }`; scimmy already reads capitalised ops and member removal by a
 * value list) and bare member ids; a missing `schemas` is the PatchOp one.
 */
export function normalizePatch(body: ScimObject, patchOpUrn: string): ScimObject {
  const operationsKey = Object.keys(body).find((key) => key.toLowerCase() === 'operations') ?? 'Operations';
  const operations = Array.isArray(body[operationsKey]) ? (body[operationsKey] as ScimObject[]) : body[operationsKey];
  return {
    schemas: body.schemas ?? [patchOpUrn],
    Operations: Array.isArray(operations) ? operations.map(normalizeOperation) : operations,
  };
}

function normalizeOperation(operation: ScimObject): ScimObject {
  if (typeof operation !== 'object' || operation === null) return operation;
  const path = typeof operation.path === 'string' ? operation.path.trim() : undefined;
  const leaf = path?.split(/[.:]/).at(-1)?.toLowerCase();
  let value = operation.value;
  if (leaf && booleanAttributes.has(leaf)) value = toBoolean(value);
  else if (path?.toLowerCase() === 'members' && value !== undefined) value = normalizeMembers(value);
  else value = normalizeBooleans(value);
  return { ...operation, ...(path === undefined ? {} : { path }), ...(value === undefined ? {} : { value }) };
}
