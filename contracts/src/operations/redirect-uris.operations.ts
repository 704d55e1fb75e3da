import { z } from '../zod';
import { deletedSchema, listSchema, pageQuerySchema } from '../common/pagination.schema';
import { redirectUriSchema } from '../entities/misc.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { redirectUrisExamples } from './redirect-uris.examples';

export const createRedirectUriBodySchema = z
  .object({ url: z.string().trim().min(1).max(2_000) })
  .meta({ id: 'CreateRedirectUriRequest' });
export const redirectUriParamsSchema = z.object({ id: z.uuid() });

export const redirectUriListSchema = listSchema(redirectUriSchema, 'RedirectUriList');
export const redirectUriDeletedSchema = deletedSchema(redirectUriSchema, 'RedirectUriDeleted');

export const createRedirectUri = defineOperation({
  operationId: 'createRedirectUri',
  method: 'post',
  path: '/api/v2/redirect_uris',
  tag: 'Redirect URIs',
  summary: 'Create a redirect URI',
  description:
    'An absolute https URL (http only for localhost in production), without fragment, unique in the environment. The first one of an environment becomes its default.',
  auth: 'api_key',
  scope: 'redirect_uris:write',
  subject: subjects.identity.redirectUris.create,
  request: { body: createRedirectUriBodySchema },
  response: { status: 201, description: 'The created redirect URI', schema: redirectUriSchema },
  errors: ['unauthorized'],
  examples: redirectUrisExamples.createRedirectUri,
});

export const listRedirectUris = defineOperation({
  operationId: 'listRedirectUris',
  method: 'get',
  path: '/api/v2/redirect_uris',
  tag: 'Redirect URIs',
  summary: 'List redirect URIs',
  auth: 'api_key',
  scope: 'redirect_uris:read',
  subject: subjects.identity.redirectUris.list,
  request: { query: pageQuerySchema },
  response: { status: 200, description: 'A page of redirect URIs, oldest first', schema: redirectUriListSchema },
  errors: ['unauthorized'],
  examples: redirectUrisExamples.listRedirectUris,
});

export const getRedirectUri = defineOperation({
  operationId: 'getRedirectUri',
  method: 'get',
  path: '/api/v2/redirect_uris/{id}',
  tag: 'Redirect URIs',
  summary: 'Retrieve a redirect URI',
  auth: 'api_key',
  scope: 'redirect_uris:read',
  subject: subjects.identity.redirectUris.get,
  request: { params: redirectUriParamsSchema },
  response: { status: 200, description: 'The redirect URI', schema: redirectUriSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: redirectUrisExamples.getRedirectUri,
});

export const deleteRedirectUri = defineOperation({
  operationId: 'deleteRedirectUri',
  method: 'delete',
  path: '/api/v2/redirect_uris/{id}',
  tag: 'Redirect URIs',
  summary: 'Delete a redirect URI',
  description: 'The default redirect URI cannot be deleted until another one is made default.',
  auth: 'api_key',
  scope: 'redirect_uris:write',
  subject: subjects.identity.redirectUris.delete,
  request: { params: redirectUriParamsSchema },
  response: { status: 200, description: 'The deleted redirect URI', schema: redirectUriDeletedSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: redirectUrisExamples.deleteRedirectUri,
});

export const setDefaultRedirectUri = defineOperation({
  operationId: 'setDefaultRedirectUri',
  method: 'put',
  path: '/api/v2/redirect_uris/{id}/set-as-default',
  tag: 'Redirect URIs',
  summary: 'Make a redirect URI the default',
  auth: 'api_key',
  scope: 'redirect_uris:write',
  subject: subjects.identity.redirectUris.setDefault,
  request: { params: redirectUriParamsSchema },
  response: { status: 200, description: 'The new default redirect URI', schema: redirectUriSchema },
  errors: ['unauthorized', 'resource_not_found'],
  examples: redirectUrisExamples.setDefaultRedirectUri,
});

export const redirectUriOperations = [
  createRedirectUri,
  listRedirectUris,
  getRedirectUri,
  deleteRedirectUri,
  setDefaultRedirectUri,
];
