import SCIMMY from 'scimmy';
import { rethrowScimmyError } from './scim-error';
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

/** Applies a PatchOp message to a stored resource; answers the patched resource, without meta. */
export async function applyPatchOp(kind: ScimResourceKind, resource: ScimObject, message: ScimObject): Promise<ScimObject> {
  try {
    const instance = new (schemaOf(kind))(resource, 'both');
    // scimmy answers nothing when the operations leave the resource as it was.
    const patched = plain((await new SCIMMY.Messages.PatchOp(message as never).apply(instance)) ?? instance);
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
