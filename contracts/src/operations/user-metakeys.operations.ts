import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { booleanInputSchema } from '../common/primitives.schema';
import { userMetakeySchema, userMetakeyTypes } from '../entities/misc.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { metadataKeySchema } from './users.operations';
import { userMetakeysExamples } from './user-metakeys.examples';

export const createUserMetakeyBodySchema = z
  .object({
    name: z.string().trim().min(1).pipe(metadataKeySchema),
    required: booleanInputSchema.optional().meta({ description: 'Default false' }),
    type: z.enum(userMetakeyTypes).optional().meta({ description: 'Default string' }),
  })
  .meta({ id: 'CreateUserMetakeyRequest' });
export type CreateUserMetakeyBody = z.infer<typeof createUserMetakeyBodySchema>;

/** The key to delete, as `name` in the body or in the query string. */
export const userMetakeyNameSchema = z.object({ name: z.string().trim().min(1).max(64).optional() });

export const userMetakeyListSchema = listSchema(userMetakeySchema, 'UserMetakeyList');
export const userMetakeyDeletedSchema = deletedSchema(userMetakeySchema, 'UserMetakeyDeleted');

export const createUserMetakey = defineOperation({
  operationId: 'createUserMetakey',
  method: 'post',
  path: '/api/v2/tokens/user-metakeys',
  tag: 'Token',
  summary: 'Create a user metadata key',
  description:
    'Declares a key of user metadata for the environment of the API key: its type is checked on every write, and a required key must be present on users created afterwards.',
  auth: 'api_key',
  scope: 'tokens:write',
  subject: subjects.identity.userMetakeys.create,
  request: { body: createUserMetakeyBodySchema },
  response: { status: 201, description: 'The created key', schema: userMetakeySchema },
  errors: ['unauthorized'],
  examples: userMetakeysExamples.createUserMetakey,
});

export const listUserMetakeys = defineOperation({
  operationId: 'listUserMetakeys',
  method: 'get',
  path: '/api/v2/tokens/user-metakeys',
  tag: 'Token',
  summary: 'List user metadata keys',
  auth: 'api_key',
  scope: 'tokens:read',
  subject: subjects.identity.userMetakeys.list,
  request: { query: pageQuerySchema },
  response: { status: 200, description: 'A page of keys, oldest first', schema: userMetakeyListSchema },
  errors: ['unauthorized'],
  examples: userMetakeysExamples.listUserMetakeys,
});

export const deleteUserMetakey = defineOperation({
  operationId: 'deleteUserMetakey',
  method: 'delete',
  path: '/api/v2/tokens/user-metakeys',
  tag: 'Token',
  summary: 'Delete a user metadata key',
  description:
    'Removes the key and its values from every user of the environment. The key is locked while this happens: writes to it, a second deletion and a new key of the same name are refused until it is gone.',
  auth: 'api_key',
  scope: 'tokens:write',
  subject: subjects.identity.userMetakeys.delete,
  request: { query: userMetakeyNameSchema, body: userMetakeyNameSchema },
  response: { status: 200, description: 'The key being deleted', schema: userMetakeyDeletedSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: userMetakeysExamples.deleteUserMetakey,
});

export const userMetakeyOperations = [createUserMetakey, listUserMetakeys, deleteUserMetakey];
