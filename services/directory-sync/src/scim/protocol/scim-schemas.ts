import SCIMMY from 'scimmy';
import { schemaNames } from './attribute-paths';
import type { ResourceNames } from './attribute-paths';
import { addMissingEntries } from './quirks';
import { rethrowScimmyError, scimFail } from './scim-error';
import type { ScimObject } from './filter';

/**
 * The SCIM schemas (RFC 7643) come from scimmy: User with the enterprise extension, and Group.
 * scimmy validates and coerces resources against them (types, required and read-only
 * attributes, attribute names matched case-insensitively and written in their canonical case,
 * unknown attributes dropped) and applies PatchOp messages (RFC 7644 section 3.5.2).
 */
SCIMMY.Resources.declare(SCIMMY.Resources.User).extend(SCIMMY.Schemas.EnterpriseUser, false);
SCIMMY.Resources.declare(SCIMMY.Resources.Group);

export type ScimResourceKind = 'User' | 'Group';

export const scimSchemaUrns = {
  User: SCIMMY.Schemas.User.id,
  EnterpriseUser: SCIMMY.Schemas.EnterpriseUser.id,
  Group: SCIMMY.Schemas.Group.id,
  ListResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  PatchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
} as const;

const schemaOf = (kind: ScimResourceKind) => (kind === 'User' ? SCIMMY.Schemas.User : SCIMMY.Schemas.Group);

const plain = (value: unknown): ScimObject => JSON.parse(JSON.stringify(value)) as ScimObject;

/**
 * A resource a client sent (POST or PUT), validated and in canonical form, without `id`, `meta`
 * and `password` (never returned, and Sesame users get passwords through the password API).
 */
export function coerceIncoming(kind: ScimResourceKind, body: ScimObject): ScimObject {
  try {
    const coerced = plain(new (schemaOf(kind))(body, 'in'));
    delete coerced.meta;
    delete coerced.password;
    return coerced;
  } catch (error) {
    rethrowScimmyError(error);
  }
}

type Described = { id: string; attributes: Parameters<typeof schemaNames>[1] };
const descriptionOf = (schema: typeof SCIMMY.Schemas.User | typeof SCIMMY.Schemas.EnterpriseUser | typeof SCIMMY.Schemas.Group) =>
  plain(schema.definition.describe()) as unknown as Described;
/** The common attributes of every resource (RFC 7643 section 3.1), which the schema descriptions leave out. */
const commonAttributes: Described['attributes'] = [
  { name: 'id', type: 'string', multiValued: false },
  { name: 'externalId', type: 'string', multiValued: false },
  {
    name: 'meta',
    type: 'complex',
    multiValued: false,
    subAttributes: ['resourceType', 'created', 'lastModified', 'location', 'version'].map((name) => ({ name })),
  },
];
const namesOf = (schema: Described) => schemaNames(schema.id, [...commonAttributes, ...schema.attributes]);

/** The attribute names the paths of each resource type may use, to read them whatever their case. */
export const resourceNames: Record<ScimResourceKind, ResourceNames> = {
  User: {
    core: namesOf(descriptionOf(SCIMMY.Schemas.User)),
    extensions: [schemaNames(scimSchemaUrns.EnterpriseUser, descriptionOf(SCIMMY.Schemas.EnterpriseUser).attributes)],
  },
  Group: { core: namesOf(descriptionOf(SCIMMY.Schemas.Group)), extensions: [] },
};

/** The core schema's readOnly attributes, lower-cased name → name (User: `groups`). */
const readOnlyAttributes = (kind: ScimResourceKind): Map<string, string> => {
  const { attributes } = plain(schemaOf(kind).definition.describe()) as { attributes: { name: string; mutability: string }[] };
  const names = attributes.filter((attribute) => attribute.mutability === 'readOnly').map((attribute) => attribute.name);
  return new Map(names.map((name) => [name.toLowerCase(), name]));
};
const readOnly: Record<ScimResourceKind, Map<string, string>> = {
  User: readOnlyAttributes('User'),
  Group: readOnlyAttributes('Group'),
};

/** `groups`, `groups[type eq "direct"].display`, `urn:...:core:2.0:User:groups.value` → `groups` (lower-cased). */
function topAttribute(kind: ScimResourceKind, path: string): string {
  const lowered = path.trim().toLowerCase();
  const urn = `${scimSchemaUrns[kind].toLowerCase()}:`;
  return (lowered.startsWith(urn) ? lowered.slice(urn.length) : lowered).split(/[.[]/)[0] ?? '';
}

/**
 * RFC 7644 section 3.5.2: an operation targeting a readOnly attribute, by its path or, without
 * one, by a key of its value, answers 400 `mutability` (scimmy refuses `id` itself, but would
 * write `groups` onto a user that has none).
 */
function refuseReadOnlyTargets(kind: ScimResourceKind, message: ScimObject): void {
  const operations = Array.isArray(message.Operations) ? (message.Operations as unknown[]) : [];
  operations.forEach((operation, index) => {
    const { op, path, value } = (typeof operation === 'object' && operation !== null ? operation : {}) as ScimObject;
    const targets =
      typeof path === 'string'
        ? [path]
        : typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.keys(value)
          : [];
    const name = targets.map((target) => readOnly[kind].get(topAttribute(kind, target))).find((found) => found !== undefined);
    if (name)
      scimFail(
        400,
        `Attribute '${name}' is readOnly and cannot be changed by '${String(op)}' op of operation ${index + 1} in PatchOp request body`,
        'mutability',
      );
  });
}

/** Applies a PatchOp message to a stored resource; answers the patched resource, without meta. */
export async function applyPatchOp(kind: ScimResourceKind, resource: ScimObject, message: ScimObject): Promise<ScimObject> {
  refuseReadOnlyTargets(kind, message);
  const completed = addMissingEntries(resource, message, resourceNames[kind]);
  try {
    const instance = new (schemaOf(kind))(resource, 'both');
    // scimmy answers nothing when the operations leave the resource as it was.
    const patched = plain((await new SCIMMY.Messages.PatchOp(completed as never).apply(instance)) ?? instance);
    delete patched.meta;
    delete patched.id;
    delete patched.password;
    return patched;
  } catch (error) {
    rethrowScimmyError(error);
  }
}

/** The `Schemas` resources (RFC 7643 section 7). */
export function schemaDefinitions(location: (id: string) => string): ScimObject[] {
  return [SCIMMY.Schemas.User, SCIMMY.Schemas.EnterpriseUser, SCIMMY.Schemas.Group].map((schema) => {
    const description = plain(schema.definition.describe()) as ScimObject & { id: string };
    return { ...description, meta: { resourceType: 'Schema', location: location(description.id) } };
  });
}

/** The `ResourceTypes` resources (RFC 7643 section 6). */
export function resourceTypes(location: (id: string) => string): ScimObject[] {
  return [SCIMMY.Resources.User, SCIMMY.Resources.Group].map((resource) => {
    const description = plain(resource.describe()) as ScimObject & { id: string };
    return {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      ...description,
      meta: { resourceType: 'ResourceType', location: location(description.id) },
    };
  });
}
