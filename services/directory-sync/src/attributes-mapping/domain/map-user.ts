import {
  addressInputSchema,
  emailInputSchema,
  metadataValueSchema,
  phoneNumberInputSchema,
  profileInputSchema,
  z,
} from '@sesame/contracts';
import type { AttributeMapping } from '@sesame/contracts';
import { matches, parseFilter } from '../../scim/protocol/filter';

type ScimObject = Record<string, unknown>;

/** The Sesame user fields a SCIM user gives through the attribute mapping. */
export interface MappedUser {
  email?: string;
  phone_number?: string;
  profile: Record<string, string>;
  address: Record<string, string>;
  metadata: Record<string, string | number | boolean | null>;
}

export type MappingResult = { ok: true; user: MappedUser } | { ok: false; problems: string[] };

const keyOf = (object: ScimObject, name: string) => Object.keys(object).find((key) => key.toLowerCase() === name.toLowerCase());

const entryWith = (values: unknown[], test: (entry: ScimObject) => boolean) =>
  values.find((value) => typeof value === 'object' && value !== null && test(value as ScimObject));

/**
 * The entry a multi-valued attribute stands for: its primary one, else its `work` one (Entra ID
 * sends `work`, `mobile` and `fax` phone numbers, and `work` and `other` addresses, none primary),
 * else its first one.
 */
function representative(values: unknown[]): unknown {
  return (
    entryWith(values, (entry) => entry.primary === true) ??
    entryWith(values, (entry) => typeof entry.type === 'string' && entry.type.toLowerCase() === 'work') ??
    values[0]
  );
}

/**
 * The value of a mapping's SCIM attribute path in a resource: `name.givenName`, `emails.value`
 * (primary entry), `emails[type eq "work"].value` (primary matching entry),
 * `urn:...:enterprise:2.0:User:department`, `...:manager.value` or `...:manager` (its `value`).
 */
export function readScimAttribute(resource: ScimObject, path: string): unknown {
  const valueFilter = /\[(.+)\]/.exec(path);
  const filter = valueFilter ? parseFilter(valueFilter[1] as string) : null;
  const plainPath = path.replace(/\[.+\]/, '');
  let current: unknown = resource;
  let rest = plainPath;
  if (plainPath.toLowerCase().startsWith('urn:')) {
    const colon = plainPath.lastIndexOf(':');
    const key = keyOf(resource, plainPath.slice(0, colon));
    current = key === undefined ? undefined : resource[key];
    rest = plainPath.slice(colon + 1);
  }
  for (const [index, name] of rest.split('.').entries()) {
    if (Array.isArray(current)) current = representative(current);
    if (typeof current !== 'object' || current === null) return undefined;
    const key = keyOf(current as ScimObject, name);
    current = key === undefined ? undefined : (current as ScimObject)[key];
    if (index === 0 && filter && Array.isArray(current))
      current = current.filter((entry) => typeof entry === 'object' && entry !== null && matches(entry as ScimObject, filter));
  }
  const found = Array.isArray(current) ? representative(current) : current;
  return typeof found === 'object' && found !== null && !Array.isArray(found) ? valueOf(found as ScimObject) : found;
}

/** A complex value where a simple one is read (`urn:...:User:manager`, `emails`) stands for its `value`. */
function valueOf(complex: ScimObject): unknown {
  const key = keyOf(complex, 'value');
  return key === undefined ? complex : complex[key];
}

function targetSchema(field: string): z.ZodType {
  const [root, name] = field.split('.') as [string, string | undefined];
  if (root === 'email') return emailInputSchema;
  if (root === 'phone_number') return phoneNumberInputSchema;
  if (root === 'profile') return profileInputSchema.shape[name as keyof typeof profileInputSchema.shape];
  if (root === 'address') return addressInputSchema.shape[name as keyof typeof addressInputSchema.shape];
  return metadataValueSchema;
}

/**
 * Applies the attribute mapping to a SCIM user (checked against the same input schemas as the
 * public API). A required attribute that is missing or invalid is a problem; an optional one
 * is left out of the user.
 */
export function mapScimUser(resource: ScimObject, mapping: AttributeMapping[]): MappingResult {
  const user: MappedUser = { profile: {}, address: {}, metadata: {} };
  const problems: string[] = [];
  for (const attribute of mapping) {
    const target = attribute.mapped_name;
    const raw = readScimAttribute(resource, attribute.name);
    const parsed = raw === undefined || raw === null || raw === '' ? null : targetSchema(target).safeParse(raw);
    if (!parsed?.success) {
      if (attribute.required)
        problems.push(
          parsed === null
            ? `${attribute.name} is required (mapped to ${attribute.mapped_name})`
            : `${attribute.name} ${parsed.error.issues[0]?.message ?? 'is invalid'} (mapped to ${attribute.mapped_name})`,
        );
      continue;
    }
    const [root, field] = target.split('.') as [keyof MappedUser, string | undefined];
    if (root === 'email' || root === 'phone_number') user[root] = parsed.data as string;
    else (user[root] as Record<string, unknown>)[field as string] = parsed.data;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, user };
}
