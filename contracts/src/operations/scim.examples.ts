import { scimErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';

const base = 'https://sesame.example.com/scim/v2/0d3f7a52-6c1e-4b8a-9f2d-3e4c5b6a7d81';
const listResponse = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const searchRequest = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const userUrn = 'urn:ietf:params:scim:schemas:core:2.0:User';
const groupUrn = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const notFound = scimErrorExample(404, 'Resource 9b1f3c2e-4d5a-4e6b-8c7d-1a2b3c4d5e6f not found');

const meta = (resourceType: 'User' | 'Group', id: string, version: number) => ({
  resourceType,
  created: '2025-03-04T09:12:45.118Z',
  lastModified: version === 1 ? '2025-03-04T09:12:45.118Z' : '2025-03-05T14:02:11.407Z',
  location: `${base}/${resourceType}s/${id}`,
  version: `W/"${version}"`,
});

const userId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const userInput = {
  schemas: [userUrn],
  externalId: '00u1ab2cd3EF4gh5i6j7',
  userName: 'ada.lovelace@acme.com',
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  emails: [{ value: 'ada.lovelace@acme.com', type: 'work', primary: true }],
  active: true,
};
const user = (version: number, input: object = userInput) => ({ ...input, id: userId, meta: meta('User', userId, version) });

const groupId = '5f8a2b1c-3d4e-4f6a-8b9c-0d1e2f3a4b5c';
const groupInput = {
  schemas: [groupUrn],
  externalId: '00g9zy8xw7VU6ts5r4q3',
  displayName: 'Engineering',
  members: [{ value: userId, display: 'ada.lovelace@acme.com' }],
};
const group = (version: number, input: object = groupInput) => ({ ...input, id: groupId, meta: meta('Group', groupId, version) });

const page = (resources: object[]) => ({
  schemas: [listResponse],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});

const resourceExamples = (kind: 'User' | 'Group', resource: typeof user, input: object, replaced: object, patch: object) => ({
  create: {
    request: input,
    response: resource(1),
    error:
      kind === 'User'
        ? scimErrorExample(409, 'userName ada.lovelace@acme.com is already taken in this directory', 'uniqueness')
        : scimErrorExample(400, 'displayName is required', 'invalidValue'),
  },
  list: { response: page([resource(1)]), error: scimErrorExample(400, 'The filter userName xx "a" is invalid', 'invalidFilter') },
  search: {
    request: {
      schemas: [searchRequest],
      filter: kind === 'User' ? 'userName eq "ada.lovelace@acme.com"' : 'displayName eq "Engineering"',
      startIndex: 1,
      count: 10,
    },
    response: page([resource(1)]),
    error: scimErrorExample(400, 'The filter displayName zz "x" is invalid', 'invalidFilter'),
  },
  get: { response: resource(1), error: notFound },
  replace: {
    request: replaced,
    response: resource(2, replaced),
    error: scimErrorExample(412, 'If-Match W/"1" does not match the version W/"2"'),
  },
  patch: { request: { schemas: [patchOp], Operations: [patch] }, error: notFound },
  delete: { error: notFound },
});

/** Examples of the SCIM operations (API reference), checked against their schemas. */
export const scimExamples = {
  serviceProviderConfig: {
    response: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      documentationUri: 'https://docs.sesame.example.com/directory-sync',
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: 1000 },
      changePassword: { supported: false },
      sort: { supported: true },
      etag: { supported: true },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'OAuth Bearer Token',
          description: 'The auth_secret_token value of the directory sync, as a Bearer token',
          specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
          documentationUri: 'https://docs.sesame.example.com/directory-sync',
          primary: true,
        },
      ],
      meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
    },
    error: scimErrorExample(401, 'Missing or invalid bearer token'),
  },
  resourceTypes: {
    response: page([
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
        id: 'User',
        name: 'User',
        endpoint: '/Users',
        schema: userUrn,
        meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
      },
    ]),
    error: scimErrorExample(403, 'The directory sync is inactive'),
  },
  resourceType: {
    response: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      schema: groupUrn,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
    error: scimErrorExample(404, 'Resource type Device not found'),
  },
  schemas: {
    response: page([
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
        id: groupUrn,
        name: 'Group',
        attributes: [{ name: 'displayName', type: 'string', multiValued: false, required: true }],
        meta: { resourceType: 'Schema', location: `${base}/Schemas/${groupUrn}` },
      },
    ]),
    error: scimErrorExample(401, 'Missing or invalid bearer token'),
  },
  schema: {
    response: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
      id: userUrn,
      name: 'User',
      attributes: [{ name: 'userName', type: 'string', multiValued: false, required: true, uniqueness: 'server' }],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${userUrn}` },
    },
    error: scimErrorExample(404, 'Schema urn:example:unknown not found'),
  },
  search: {
    request: { schemas: [searchRequest], filter: 'externalId eq "00u1ab2cd3EF4gh5i6j7"' },
    response: page([user(1)]),
    error: scimErrorExample(400, 'The filter externalId zz "x" is invalid', 'invalidFilter'),
  },
  User: resourceExamples(
    'User',
    user,
    userInput,
    { ...userInput, name: { givenName: 'Ada', familyName: 'King' } },
    { op: 'replace', path: 'active', value: false },
  ),
  Group: resourceExamples(
    'Group',
    group,
    groupInput,
    { ...groupInput, displayName: 'Research' },
    { op: 'add', path: 'members', value: [{ value: '2a4b6c8d-0e1f-4a3b-9c5d-7e9f1a3b5c7d' }] },
  ),
} satisfies Record<string, OperationExamples | Record<string, OperationExamples>>;
