import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { localeSchema, optionalNullable, orgDomainParamsSchema, timezoneSchema } from '../common/inputs.schema';
import { phoneNumberInputSchema } from '../common/phone.schema';
import { booleanInputSchema, httpUrlSchema, listInputSchema } from '../common/primitives.schema';
import { genders, userBodySchema } from '../entities/user.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { usersExamples } from './users.examples';

const text = (max = 255) => optionalNullable(z.string().trim().max(max));

/** `YYYY-MM-DD`, a real calendar date. */
export const birthdateSchema = z.string().refine((value) => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}, 'must be a date in the format YYYY-MM-DD');

export const emailInputSchema = z.string().trim().min(1).max(254).pipe(z.email());

export const profileInputSchema = z
  .strictObject({
    birthdate: optionalNullable(birthdateSchema),
    family_name: text(),
    given_name: text(),
    gender: optionalNullable(z.enum(genders, { error: 'must be male, female or null' })),
    locale: optionalNullable(localeSchema),
    nickname: text(),
    picture: optionalNullable(httpUrlSchema),
    preferred_username: text(),
    website: optionalNullable(httpUrlSchema),
    zoneinfo: optionalNullable(timezoneSchema),
  })
  .meta({ id: 'ProfileInput' });
export type ProfileInput = z.infer<typeof profileInputSchema>;

export const addressInputSchema = z
  .strictObject({
    country: text(100),
    formatted: text(1000),
    locality: text(),
    postal_code: text(40),
    region: text(),
    street_address: text(1000),
  })
  .meta({ id: 'AddressInput' });
export type AddressInput = z.infer<typeof addressInputSchema>;

export const metadataKeySchema = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must start with a letter and hold only letters, digits and underscores (64 at most)');
export const metadataValueSchema = z.union([z.string().max(2_000), z.number(), z.boolean(), z.null()], {
  error: 'must be a string, a number, a boolean or null',
});
export const metadataInputSchema = z
  .record(metadataKeySchema, metadataValueSchema)
  .refine((record) => Object.keys(record).length <= 50, 'must have at most 50 keys');

export const phoneNumbersInputSchema = listInputSchema(
  z.strictObject({ value: phoneNumberInputSchema, primary: booleanInputSchema.optional() }),
)
  .pipe(z.array(z.any()).max(10))
  .refine((list) => list.filter((entry) => entry.primary === true).length <= 1, 'can have only one primary phone number');

/** The user fields of a request, by their names in the answers (service-to-service requests use them too). */
export const userInputFields = {
  email_verified: booleanInputSchema.optional(),
  phone_number: optionalNullable(phoneNumberInputSchema),
  phone_number_verified: booleanInputSchema.optional(),
  phone_numbers: phoneNumbersInputSchema.optional(),
  address: addressInputSchema.optional(),
  profile: profileInputSchema.optional(),
  metadata: metadataInputSchema.optional(),
};

type Metadata = z.infer<typeof metadataInputSchema>;

const metadataAliasMessage = 'must be the same as metadata when both are given (meta_data is another name for metadata)';

const sameMetadata = (a: Metadata, b: Metadata) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([key, value]) => Object.hasOwn(b, key) && b[key] === value);

/**
 * `meta_data`, the other name of `metadata` (SPEC.md section 3), read as `metadata`: both given
 * must agree. The body then carries `metadata` only.
 */
function readMetadataAlias<Body extends { metadata?: Metadata; meta_data?: Metadata }>(
  body: Body,
  context: z.RefinementCtx,
): Omit<Body, 'meta_data'> {
  const { meta_data, ...rest } = body;
  if (meta_data === undefined) return rest;
  if (rest.metadata !== undefined && !sameMetadata(rest.metadata, meta_data)) {
    context.addIssue({ code: 'custom', path: ['meta_data'], message: metadataAliasMessage });
    return z.NEVER;
  }
  return { ...rest, metadata: meta_data };
}

const userFields = {
  ...userInputFields,
  meta_data: metadataInputSchema
    .optional()
    .meta({ description: 'Another name for `metadata`; when both are given they must be the same' }),
};

export const createUserBodySchema = z
  .object({
    email: emailInputSchema,
    ...userFields,
    id: z
      .unknown()
      .refine((value) => value === undefined, 'is assigned by Sesame and cannot be chosen')
      .optional()
      .meta({ description: 'Assigned by Sesame; cannot be chosen' }),
  })
  .transform(readMetadataAlias)
  .meta({ id: 'CreateUserRequest' });
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

export const updateUserBodySchema = z
  .object({
    email: emailInputSchema,
    active: booleanInputSchema.optional(),
    ...userFields,
    id: z.string().optional().meta({ description: 'Cannot be changed; sending another value is an error' }),
  })
  .transform(readMetadataAlias)
  .meta({
    id: 'UpdateUserRequest',
    description:
      'Fields left out keep their value. `profile` and `address` are merged field by field; `metadata` (or `meta_data`) replaces the whole map.',
  });
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const userParamsSchema = orgDomainParamsSchema.extend({ id: z.uuid() });
export const userLookupParamsSchema = orgDomainParamsSchema.extend({
  id: z.string().min(1).max(254).meta({ description: 'The user id (uuid) or email address' }),
});

export const addUserMetadataBodySchema = z
  .object({ key: metadataKeySchema, value: metadataValueSchema })
  .meta({ id: 'AddUserMetadataRequest' });
export const removeUserMetadataBodySchema = z.object({ key: metadataKeySchema }).meta({ id: 'RemoveUserMetadataRequest' });

export const listUsersQuerySchema = pageQuerySchema.extend({
  email: z.string().max(254).optional().meta({ description: 'Only the user with this email (case-insensitive)' }),
});

export const userListSchema = listSchema(userBodySchema, 'UserList');
export const userDeletedSchema = deletedSchema(userBodySchema, 'UserDeleted');

const organizationErrors = ['unauthorized', 'resource_not_found'] as const;

/** Limit, users counted and places left under one of the plan's limits (`limit` and `remaining` null: unlimited). */
export const userLimitUsageSchema = z
  .object({
    limit: z.number().int().nullable(),
    used: z.number().int(),
    remaining: z.number().int().nullable(),
  })
  .meta({ id: 'UserLimitUsage' });

export const userLimitSchema = z
  .object({
    environment: z.enum(['sandbox', 'production']),
    users: userLimitUsageSchema,
    organization: userLimitUsageSchema.extend({ domain: z.string() }).nullable(),
  })
  .meta({ id: 'UserLimit' });
export type UserLimit = z.infer<typeof userLimitSchema>;

export const getUserLimitQuerySchema = z.object({
  org_domain: z.string().trim().min(1).max(255).optional().meta({ description: 'Also tell the limit of this organization' }),
});

export const getUserLimit = defineOperation({
  operationId: 'getUserLimit',
  method: 'get',
  path: '/api/v2/user-limit',
  tag: 'Users',
  summary: "The plan's limit on the number of users",
  description:
    'How many users the environment of the API key may hold, how many it holds and how many more can be created; with `org_domain`, the same for that organization (its own limit, `null` when it has none). A creation over either limit is refused with 403 `user_limit_reached`, whichever way it comes (API, SCIM, SSO, magic link, password, relays).',
  auth: 'api_key',
  scope: 'users:read',
  subject: subjects.identity.users.limit,
  request: { query: getUserLimitQuerySchema },
  response: { status: 200, description: 'Limit, users and places left', schema: userLimitSchema },
  errors: [...organizationErrors],
  examples: usersExamples.getUserLimit,
});

export const createUser = defineOperation({
  operationId: 'createUser',
  method: 'post',
  path: '/api/v2/org/{org_domain}/users',
  tag: 'Users',
  summary: 'Create a user',
  description:
    'Creates a user in the organization, in the environment of the API key. The email is unique per organization and environment (case-insensitive) and must belong to one of the organization’s `allowed_email_domains` when it has any.',
  auth: 'api_key',
  scope: 'users:write',
  subject: subjects.identity.users.create,
  request: { params: orgDomainParamsSchema, body: createUserBodySchema },
  response: { status: 201, description: 'The created user', schema: userBodySchema },
  errors: [...organizationErrors, 'user_limit_reached'],
  examples: usersExamples.createUser,
});

export const listUsers = defineOperation({
  operationId: 'listUsers',
  method: 'get',
  path: '/api/v2/org/{org_domain}/users',
  tag: 'Users',
  summary: 'List users',
  auth: 'api_key',
  scope: 'users:read',
  subject: subjects.identity.users.list,
  request: { params: orgDomainParamsSchema, query: listUsersQuerySchema },
  response: { status: 200, description: 'A page of users, oldest first', schema: userListSchema },
  errors: [...organizationErrors],
  examples: usersExamples.listUsers,
});

export const getUser = defineOperation({
  operationId: 'getUser',
  method: 'get',
  path: '/api/v2/org/{org_domain}/users/{id}',
  tag: 'Users',
  summary: 'Retrieve a user by id or email',
  auth: 'api_key',
  scope: 'users:read',
  subject: subjects.identity.users.get,
  request: { params: userLookupParamsSchema },
  response: { status: 200, description: 'The user', schema: userBodySchema },
  errors: [...organizationErrors],
  examples: usersExamples.getUser,
});

export const updateUser = defineOperation({
  operationId: 'updateUser',
  method: 'put',
  path: '/api/v2/org/{org_domain}/users/{id}',
  tag: 'Users',
  summary: 'Update a user',
  description:
    'The email is required. Profile attributes kept up to date by an SSO provider at each sign-in cannot be changed here (unless its connection updates them only at profile creation).',
  auth: 'api_key',
  scope: 'users:write',
  subject: subjects.identity.users.update,
  request: { params: userParamsSchema, body: updateUserBodySchema },
  response: { status: 200, description: 'The updated user', schema: userBodySchema },
  errors: [...organizationErrors],
  examples: usersExamples.updateUser,
});

export const deleteUser = defineOperation({
  operationId: 'deleteUser',
  method: 'delete',
  path: '/api/v2/org/{org_domain}/users/{id}',
  tag: 'Users',
  summary: 'Delete a user',
  auth: 'api_key',
  scope: 'users:write',
  subject: subjects.identity.users.delete,
  request: { params: userParamsSchema },
  response: { status: 200, description: 'The deleted user', schema: userDeletedSchema },
  errors: [...organizationErrors],
  examples: usersExamples.deleteUser,
});

/** The answer of an erasure: the same at every call (an erasure is recorded once). */
export const userErasureSchema = z
  .object({
    user_id: z.string().meta({ description: 'Id of the erased user' }),
    pseudonym: z.string().meta({
      description:
        "What replaces the user's personal values in the events feed (`<pseudonym>@erased.invalid` where an email was)",
    }),
    erased_at: z.string().meta({ description: 'When the erasure was recorded' }),
  })
  .meta({ id: 'UserErasure' });

export const eraseUser = defineOperation({
  operationId: 'eraseUser',
  method: 'post',
  path: '/api/v2/org/{org_domain}/users/{id}/erasure',
  tag: 'Users',
  summary: "Erase a user's personal data from the events feed",
  description:
    "A privacy request (right to erasure): deletes the user if not deleted yet (as `DELETE` does: `user.deleted`, the email freed), records the erasure (`user.erased`) and pseudonymises the user's personal data (email, names, phone numbers, address, picture, metadata, client address and user agent of the user's own sign-ins) in every event of the events feed, its export and webhook replays; the events themselves stay, with their code, ids, organization and time. A deleted user can be erased; erasing an erased user again answers the first erasure. The raw event store and webhook deliveries already queued are not rewritten (see the events guide).",
  auth: 'api_key',
  scope: 'users:write',
  subject: subjects.identity.users.erase,
  request: { params: userParamsSchema },
  response: { status: 200, description: 'The erasure', schema: userErasureSchema },
  errors: [...organizationErrors],
  examples: usersExamples.eraseUser,
});

export const addUserMetadata = defineOperation({
  operationId: 'addUserMetadata',
  method: 'put',
  path: '/api/v2/org/{org_domain}/users/{id}/add-metadata',
  tag: 'Users',
  summary: 'Set one metadata value of a user',
  description: 'A value for a registered user metakey must have the key’s type (form values are converted).',
  auth: 'api_key',
  scope: 'users:write',
  subject: subjects.identity.users.addMetadata,
  request: { params: userParamsSchema, body: addUserMetadataBodySchema },
  response: { status: 200, description: 'The updated user', schema: userBodySchema },
  errors: [...organizationErrors],
  examples: usersExamples.addUserMetadata,
});

export const removeUserMetadata = defineOperation({
  operationId: 'removeUserMetadata',
  method: 'put',
  path: '/api/v2/org/{org_domain}/users/{id}/remove-metadata',
  tag: 'Users',
  summary: 'Remove one metadata value of a user',
  auth: 'api_key',
  scope: 'users:write',
  subject: subjects.identity.users.removeMetadata,
  request: { params: userParamsSchema, body: removeUserMetadataBodySchema },
  response: { status: 200, description: 'The updated user', schema: userBodySchema },
  errors: [...organizationErrors],
  examples: usersExamples.removeUserMetadata,
});

export const userOperations = [
  createUser,
  listUsers,
  getUser,
  updateUser,
  deleteUser,
  eraseUser,
  addUserMetadata,
  removeUserMetadata,
  getUserLimit,
];
