import { z } from '../zod';
import { orgDomainParamsSchema } from '../common/inputs.schema';
import { booleanInputSchema, listInputSchema } from '../common/primitives.schema';
import { addressSchema, profileSchema } from '../entities/user.schema';
import { attributesMappingSchema, directorySyncProviders, directorySyncSchema } from '../entities/directory-sync.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { metadataKeySchema } from './users.operations';
import { directorySyncsExamples } from './directory-syncs.examples';

export const createDirectorySyncBodySchema = z
  .object({
    provider_type: z
      .enum(directorySyncProviders, { error: `must be one of ${directorySyncProviders.join(', ')}` })
      .default('generic'),
    active: booleanInputSchema.pipe(z.boolean()).default(true),
  })
  .meta({ id: 'CreateDirectorySyncRequest' });

export const updateDirectorySyncBodySchema = z
  .object({
    provider_type: z.enum(directorySyncProviders, { error: `must be one of ${directorySyncProviders.join(', ')}` }).optional(),
    active: booleanInputSchema.pipe(z.boolean()).optional(),
    rotate_auth_secret_token: booleanInputSchema
      .pipe(z.boolean())
      .default(false)
      .meta({ description: 'Issue a new bearer token (shown once in this answer); the previous one stops working at once' }),
  })
  .meta({ id: 'UpdateDirectorySyncRequest' });

const profileFields = Object.keys(profileSchema.shape);
const addressFields = Object.keys(addressSchema.shape);

/** Whether `name` is a Sesame user field a SCIM attribute can be mapped to. */
export function isMappableUserField(name: string): boolean {
  if (name === 'email' || name === 'phone_number') return true;
  const [root, field, ...rest] = name.split('.');
  if (rest.length > 0 || field === undefined) return false;
  if (root === 'profile') return profileFields.includes(field);
  if (root === 'address') return addressFields.includes(field);
  return root === 'metadata' && metadataKeySchema.safeParse(field).success;
}

/** `name.givenName`, `emails[type eq "work"].value`, `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department`. */
const scimAttributePathSchema = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .regex(
    /^(urn:[A-Za-z0-9.:_-]+:)?[A-Za-z$][\w$-]*(\[[^\]]+\])?(\.[A-Za-z$][\w$-]*)?$/,
    'must be a SCIM attribute path such as name.givenName or emails[type eq "work"].value',
  );

export const attributeMappingInputSchema = z.object({
  name: scimAttributePathSchema,
  mapped_name: z
    .string()
    .trim()
    .refine(isMappableUserField, 'must be email, phone_number, profile.<field>, address.<field> or metadata.<key>'),
  required: booleanInputSchema.pipe(z.boolean()).default(true),
});

export const putAttributesMappingBodySchema = z
  .object({
    attributes: listInputSchema(attributeMappingInputSchema)
      .refine((attributes) => attributes.length <= 100, 'must have at most 100 attributes')
      .refine(
        (attributes) => new Set(attributes.map((attribute) => attribute.mapped_name)).size === attributes.length,
        'must map each Sesame field at most once',
      ),
  })
  .meta({ id: 'PutAttributesMappingRequest' });

export const getDirectorySync = defineOperation({
  operationId: 'getDirectorySync',
  method: 'get',
  path: '/api/v2/org/{org_domain}/directory-sync',
  tag: 'Directory Syncs',
  summary: "Retrieve an organization's directory sync",
  description: 'The token value is null: it is shown only when it is issued.',
  auth: 'api_key',
  scope: 'directory_syncs:read',
  subject: subjects.directorySync.syncs.get,
  request: { params: orgDomainParamsSchema },
  response: { status: 200, description: 'The directory sync', schema: directorySyncSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: directorySyncsExamples.getDirectorySync,
});

export const createDirectorySync = defineOperation({
  operationId: 'createDirectorySync',
  method: 'post',
  path: '/api/v2/org/{org_domain}/directory-sync',
  tag: 'Directory Syncs',
  summary: 'Create the directory sync of an organization',
  description:
    'One per organization and environment. The answer holds the SCIM base URL and the bearer token to give the identity provider; the token value is shown only in this answer (it is stored hashed).',
  auth: 'api_key',
  scope: 'directory_syncs:write',
  subject: subjects.directorySync.syncs.create,
  request: { params: orgDomainParamsSchema, body: createDirectorySyncBodySchema },
  response: { status: 201, description: 'The created directory sync, with its token value', schema: directorySyncSchema },
  errors: ['unauthorized', 'resource_not_found', 'directory_sync_already_exists'],
  examples: directorySyncsExamples.createDirectorySync,
});

export const updateDirectorySync = defineOperation({
  operationId: 'updateDirectorySync',
  method: 'put',
  path: '/api/v2/org/{org_domain}/directory-sync',
  tag: 'Directory Syncs',
  summary: 'Update or rotate the token of a directory sync',
  description:
    'An inactive directory sync answers 403 to its SCIM client. With `rotate_auth_secret_token`, a new token is issued and shown once in this answer.',
  auth: 'api_key',
  scope: 'directory_syncs:write',
  subject: subjects.directorySync.syncs.update,
  request: { params: orgDomainParamsSchema, body: updateDirectorySyncBodySchema },
  response: { status: 200, description: 'The updated directory sync', schema: directorySyncSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: directorySyncsExamples.updateDirectorySync,
});

export const getAttributesMapping = defineOperation({
  operationId: 'getAttributesMapping',
  method: 'get',
  path: '/api/v2/attributes-mapping',
  tag: 'Directory Syncs',
  summary: 'Retrieve the attribute mapping',
  description: 'How SCIM attributes become Sesame user fields in this environment (a default mapping until one is set).',
  auth: 'api_key',
  scope: 'directory_syncs:read',
  subject: subjects.directorySync.attributesMapping.get,
  request: {},
  response: { status: 200, description: 'The attribute mapping', schema: attributesMappingSchema },
  errors: ['unauthorized'],
  examples: directorySyncsExamples.getAttributesMapping,
});

export const putAttributesMapping = defineOperation({
  operationId: 'putAttributesMapping',
  method: 'put',
  path: '/api/v2/attributes-mapping',
  tag: 'Directory Syncs',
  summary: 'Replace the attribute mapping',
  description:
    'Each SCIM attribute path (`name`; a multi-valued attribute gives its primary entry, else its `work` one, else its first, and may be narrowed with a filter: `emails[type eq "work"].value`; a complex attribute such as the enterprise `manager` gives its `value`) goes to a Sesame user field (`mapped_name`). A required attribute missing or invalid in a SCIM resource refuses it (400 invalidValue); an optional one that is invalid is left out of the user. Custom attributes go to `metadata.<key>`.',
  auth: 'api_key',
  scope: 'directory_syncs:write',
  subject: subjects.directorySync.attributesMapping.put,
  request: { body: putAttributesMappingBodySchema },
  response: { status: 200, description: 'The new attribute mapping', schema: attributesMappingSchema },
  errors: ['unauthorized'],
  examples: directorySyncsExamples.putAttributesMapping,
});

export const directorySyncOperations = [
  getDirectorySync,
  createDirectorySync,
  updateDirectorySync,
  getAttributesMapping,
  putAttributesMapping,
];
