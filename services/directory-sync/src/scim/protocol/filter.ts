import { parse } from 'scim2-parse-filter';
import type { Filter } from 'scim2-parse-filter';
import { scimFail } from './scim-error';

export type { Filter } from 'scim2-parse-filter';
export type ScimObject = Record<string, unknown>;

const comparisonOperators = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
const jsonLiteral = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?|".*")$/;
const token = /"(?:[^"\\]|\\.)*"|[()[\]]|[^\s()[\]]+|\s+/g;

/**
 * RFC 7644 section 3.4.2.2 wants comparison values in JSON (`userName eq "ada"`); some clients
 * (and Microsoft's reference tests) send bare words (`userName sw O`). Such a word right after
 * a comparison operator is read as a string.
 */
export function quoteBareValues(filter: string): string {
  let previous = '';
  return (filter.match(token) ?? [])
    .map((part) => {
      if (/^\s+$/.test(part)) return part;
      const quoted = comparisonOperators.has(previous.toLowerCase()) && !jsonLiteral.test(part) && !/^[()[\]]$/.test(part);
      previous = part;
      return quoted ? JSON.stringify(part) : part;
    })
    .join('');
}

/**
 * Entra ID looks users up by `emails[type eq "work"].value eq "ada@example.com"`, a
 * sub-attribute after a value filter (outside RFC 7644's grammar, which scim2-parse-filter
 * reads as two separate conditions): it is `emails[(type eq "work") and value eq "…"]`, one
 * entry holding both.
 */
export function subAttributesInside(filter: string): string {
  const parts = filter.match(token) ?? [];
  const out: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    const [part, sub, space, op] = parts.slice(index, index + 4);
    const operator = op?.toLowerCase() ?? '';
    const open = out.lastIndexOf('[');
    const inside = part === ']' && sub?.startsWith('.') && /^\s+$/.test(space ?? '') && open >= 0;
    if (!inside || !(comparisonOperators.has(operator) || operator === 'pr')) {
      out.push(part as string);
      continue;
    }
    const value = operator === 'pr' ? [] : parts.slice(index + 4, index + 6);
    out.splice(open + 1, 0, '(');
    out.push(') and ', (sub as string).slice(1), ' ', op as string, ...value, ']');
    index += 3 + value.length;
  }
  return out.join('');
}

/** Parses a SCIM filter (scim2-parse-filter); a bad one answers 400 `invalidFilter`. */
export function parseFilter(text: string): Filter {
  try {
    return parse(subAttributesInside(quoteBareValues(text.trim())));
  } catch (error) {
    scimFail(400, `The filter is not valid: ${(error as Error).message}`, 'invalidFilter');
  }
}

/** Attributes compared case-sensitively (RFC 7643 `caseExact: true`); every other string is case-insensitive. */
const caseExactPaths = new Set([
  'id',
  'externalid',
  'meta.version',
  'meta.location',
  'members.value',
  'members.$ref',
  'groups.value',
]);
const dateTimePaths = new Set(['meta.created', 'meta.lastmodified']);

const coreSchemaPrefix = 'urn:ietf:params:scim:schemas:core:2.0:';

function keyOf(object: ScimObject, name: string): string | undefined {
  const lowered = name.toLowerCase();
  return Object.keys(object).find((key) => key.toLowerCase() === lowered);
}

/** `urn:...:enterprise:2.0:User:manager.value` → the extension object and `manager.value`. */
function splitUrn(resource: ScimObject, path: string): { root: ScimObject | undefined; rest: string } {
  if (!path.toLowerCase().startsWith('urn:')) return { root: resource, rest: path };
  const colon = path.lastIndexOf(':');
  const urn = path.slice(0, colon);
  const rest = path.slice(colon + 1);
  if (urn.toLowerCase().startsWith(coreSchemaPrefix)) return { root: resource, rest };
  const key = keyOf(resource, urn);
  const extension = key === undefined ? undefined : resource[key];
  return { root: typeof extension === 'object' && extension !== null ? (extension as ScimObject) : undefined, rest };
}

/** Every value at `path` (attribute names case-insensitive; multi-valued attributes flattened). */
export function valuesAt(resource: ScimObject, path: string): unknown[] {
  const { root, rest } = splitUrn(resource, path);
  let current: unknown[] = root ? [root] : [];
  for (const name of rest.split('.')) {
    const next: unknown[] = [];
    for (const item of current.flat()) {
      if (typeof item !== 'object' || item === null) continue;
      const key = keyOf(item as ScimObject, name);
      if (key !== undefined) next.push((item as ScimObject)[key]);
    }
    current = next.flat();
  }
  return current.filter((value) => value !== undefined);
}

/** The path without its schema URN, lower-cased: what the case rules are keyed by. */
const ruleKey = (path: string) =>
  (path.toLowerCase().startsWith('urn:') ? path.slice(path.lastIndexOf(':') + 1) : path).toLowerCase();

function compare(op: string, value: unknown, expected: unknown, path: string): boolean {
  if (expected === null) return false;
  if (typeof expected === 'boolean' || typeof expected === 'number') {
    if (op === 'eq') return value === expected;
    if (op === 'ne') return value !== expected;
    if (typeof expected === 'number' && typeof value === 'number') return ordered(op, value - expected);
    return false;
  }
  if (typeof value !== 'string' || typeof expected !== 'string') return false;
  const key = ruleKey(path);
  if (dateTimePaths.has(key) && ['gt', 'ge', 'lt', 'le', 'eq', 'ne'].includes(op)) {
    const [left, right] = [Date.parse(value), Date.parse(expected)];
    if (!Number.isNaN(left) && !Number.isNaN(right))
      return op === 'eq' ? left === right : op === 'ne' ? left !== right : ordered(op, left - right);
  }
  const exact = caseExactPaths.has(key);
  const [left, right] = exact ? [value, expected] : [value.toLowerCase(), expected.toLowerCase()];
  switch (op) {
    case 'eq':
      return left === right;
    case 'ne':
      return left !== right;
    case 'co':
      return left.includes(right);
    case 'sw':
      return left.startsWith(right);
    case 'ew':
      return left.endsWith(right);
    default:
      return ordered(op, left < right ? -1 : left > right ? 1 : 0);
  }
}

function ordered(op: string, difference: number): boolean {
  if (op === 'gt') return difference > 0;
  if (op === 'ge') return difference >= 0;
  if (op === 'lt') return difference < 0;
  if (op === 'le') return difference <= 0;
  return false;
}

const present = (value: unknown) =>
  value !== null &&
  value !== '' &&
  !(Array.isArray(value) && value.length === 0) &&
  !(typeof value === 'object' && value !== null && Object.keys(value).length === 0);

/** Whether a resource matches a parsed filter (RFC 7644 section 3.4.2.2). */
export function matches(resource: ScimObject, filter: Filter, prefix = ''): boolean {
  switch (filter.op) {
    case 'and':
      return filter.filters.every((inner) => matches(resource, inner, prefix));
    case 'or':
      return filter.filters.some((inner) => matches(resource, inner, prefix));
    case 'not':
      return !matches(resource, filter.filter, prefix);
    case '[]':
      return valuesAt(resource, filter.attrPath).some(
        (element) =>
          typeof element === 'object' &&
          element !== null &&
          matches(element as ScimObject, filter.valFilter, `${prefix}${filter.attrPath}.`),
      );
    case 'pr':
      return valuesAt(resource, filter.attrPath).some(present);
    default: {
      const values = valuesAt(resource, filter.attrPath);
      const path = `${prefix}${filter.attrPath}`;
      if (filter.compValue === null && (filter.op === 'eq' || filter.op === 'ne'))
        return values.some(present) === (filter.op === 'ne');
      if (filter.op === 'ne') return !values.some((value) => compare('eq', value, filter.compValue, path));
      return values.some((value) => compare(filter.op, value, filter.compValue, path));
    }
  }
}
