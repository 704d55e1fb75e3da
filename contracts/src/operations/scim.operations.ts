import { z } from '../zod';
import { freeFormObjectSchema } from '../common/free-form.schema';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import type { HttpMethod, Operation } from './operation';
import { scimExamples } from './scim.examples';

/**
 * SCIM 2.0 endpoints (RFC 7644) of a directory sync, under its base URL
 * `/scim/v2/{directory_id}`. Authenticated by the directory sync's bearer token; errors in the
 * SCIM shape (`application/scim+json`). Resources are validated against the SCIM schemas by the
 * directory-sync service: the gateway only checks that a body is a JSON object.
 */
export const scimBasePath = '/scim/v2/{directory_id}';

export const scimDirectoryParamsSchema = z.object({
  directory_id: z.string().min(1).max(100).meta({ description: 'Id of the directory sync' }),
});
export const scimResourceParamsSchema = scimDirectoryParamsSchema.extend({ id: z.string().min(1).max(200) });

const integer = z.coerce.number({ error: 'must be an integer' }).int('must be an integer');

/** RFC 7644 sections 3.4.2 and 3.9 (Entra ID's `aadOptscim062020` flag is accepted and ignored). */
export const scimListQuerySchema = z.object({
  filter: z.string().max(4_000).optional(),
  startIndex: integer.optional(),
  count: integer.optional(),
  attributes: z.string().max(2_000).optional(),
  excludedAttributes: z.string().max(2_000).optional(),
  sortBy: z.string().max(200).optional(),
  sortOrder: z.enum(['ascending', 'descending'], { error: 'must be ascending or descending' }).optional(),
});
export type ScimListQuery = z.infer<typeof scimListQuerySchema>;
export const scimResourceQuerySchema = scimListQuerySchema.pick({ attributes: true, excludedAttributes: true });

export const scimSearchRequestUrn = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const jsonInteger = z.number({ error: 'must be an integer' }).int('must be an integer');
const attributeList = z.array(z.string().min(1).max(200)).max(200);
/** RFC 7644 section 3.4.3: the query of a listing sent as a body, attributes as arrays. */
export const scimSearchRequestSchema = z
  .object({
    schemas: z
      .array(z.string())
      .refine((schemas) => schemas.includes(scimSearchRequestUrn), { error: `must include ${scimSearchRequestUrn}` }),
    filter: scimListQuerySchema.shape.filter,
    startIndex: jsonInteger.optional(),
    count: jsonInteger.optional(),
    attributes: attributeList.optional(),
    excludedAttributes: attributeList.optional(),
    sortBy: scimListQuerySchema.shape.sortBy,
    sortOrder: scimListQuerySchema.shape.sortOrder,
  })
  .meta({ id: 'ScimSearchRequest' });
export type ScimSearchRequest = z.infer<typeof scimSearchRequestSchema>;

/** The listing query a search request asks for (attribute arrays become the query's comma-separated lists). */
export function listQueryOfSearch({
  schemas: _schemas,
  attributes,
  excludedAttributes,
  ...rest
}: ScimSearchRequest): ScimListQuery {
  return {
    ...rest,
    ...(attributes ? { attributes: attributes.join(',') } : {}),
    ...(excludedAttributes ? { excludedAttributes: excludedAttributes.join(',') } : {}),
  };
}

/**
 * A SCIM resource or PATCH request as sent (validated against the SCIM schemas by the service).
 * Real ones nest four or five levels (`Operations[].value.emails[]`); the size stays within what
 * one NATS message carries.
 */
export const scimResourceSchema = freeFormObjectSchema({ maxDepth: 10, maxBytes: 1_048_576 }).meta({ id: 'ScimResource' });
export const scimListResponseSchema = z
  .object({
    schemas: z.array(z.string()),
    totalResults: z.number().int(),
    startIndex: z.number().int(),
    itemsPerPage: z.number().int(),
    Resources: z.array(scimResourceSchema),
  })
  .meta({ id: 'ScimListResponse' });
export const scimNoContentSchema = z.null().meta({ id: 'ScimNoContent' });

interface ScimEndpoint {
  operationId: string;
  method: HttpMethod;
  path: string;
  aliases?: string[];
  summary: string;
  subject: string;
  request: Operation['request'];
  response: Operation['response'];
  examples: Operation['examples'];
}

/** Endpoint names are also served in lower case (`/users`): some clients, Microsoft's reference tests among them, send them so. */
function aliasesOf(endpoint: ScimEndpoint): string[] {
  const paths = [...(endpoint.aliases ?? []), endpoint.path];
  const lowered = paths.map((path) => path.replace(/\/([A-Za-z]+)/g, (segment) => segment.toLowerCase()));
  return [...new Set([...(endpoint.aliases ?? []), ...lowered])]
    .filter((path) => path !== endpoint.path)
    .map((path) => `${scimBasePath}${path}`);
}

const scimOperation = <E extends ScimEndpoint>(endpoint: E) =>
  defineOperation({
    ...endpoint,
    path: `${scimBasePath}${endpoint.path}`,
    aliases: aliasesOf(endpoint),
    tag: 'Directory Syncs',
    auth: 'scim',
    errorStyle: 'scim',
    errors: [],
    rateLimits: [{ limit: 'scim_token', by: ['scim_token'] }],
  });

const discovery = [
  scimOperation({
    operationId: 'scimServiceProviderConfig',
    method: 'get',
    path: '/ServiceProviderConfig',
    aliases: ['/serviceConfiguration'],
    summary: 'SCIM service provider configuration',
    subject: subjects.directorySync.scim.serviceProviderConfig,
    request: { params: scimDirectoryParamsSchema },
    response: { status: 200, description: 'What this SCIM server supports', schema: scimResourceSchema },
    examples: scimExamples.serviceProviderConfig,
  }),
  scimOperation({
    operationId: 'scimResourceTypes',
    method: 'get',
    path: '/ResourceTypes',
    summary: 'SCIM resource types',
    subject: subjects.directorySync.scim.resourceTypes,
    request: { params: scimDirectoryParamsSchema },
    response: { status: 200, description: 'User and Group', schema: scimListResponseSchema },
    examples: scimExamples.resourceTypes,
  }),
  scimOperation({
    operationId: 'scimResourceType',
    method: 'get',
    path: '/ResourceTypes/{id}',
    summary: 'A SCIM resource type',
    subject: subjects.directorySync.scim.resourceType,
    request: { params: scimResourceParamsSchema },
    response: { status: 200, description: 'The resource type', schema: scimResourceSchema },
    examples: scimExamples.resourceType,
  }),
  scimOperation({
    operationId: 'scimSchemas',
    method: 'get',
    path: '/Schemas',
    summary: 'SCIM schemas',
    subject: subjects.directorySync.scim.schemas,
    request: { params: scimDirectoryParamsSchema },
    response: { status: 200, description: 'User, enterprise user extension and Group', schema: scimListResponseSchema },
    examples: scimExamples.schemas,
  }),
  scimOperation({
    operationId: 'scimSchema',
    method: 'get',
    path: '/Schemas/{id}',
    summary: 'A SCIM schema',
    subject: subjects.directorySync.scim.schema,
    request: { params: scimResourceParamsSchema },
    response: { status: 200, description: 'The schema', schema: scimResourceSchema },
    examples: scimExamples.schema,
  }),
  scimOperation({
    operationId: 'scimSearch',
    method: 'post',
    path: '/.search',
    summary: 'Search users and groups together with a POST query (SCIM)',
    subject: subjects.directorySync.scim.search,
    request: { params: scimDirectoryParamsSchema, body: scimSearchRequestSchema },
    response: { status: 200, description: 'A page of users and groups', schema: scimListResponseSchema },
    examples: scimExamples.search,
  }),
];

function resourceOperations(name: 'User' | 'Group', plural: 'Users' | 'Groups') {
  const scim = name === 'User' ? subjects.directorySync.scim.users : subjects.directorySync.scim.groups;
  const one = `/${plural}/{id}`;
  return [
    scimOperation({
      operationId: `scimCreate${name}`,
      method: 'post',
      path: `/${plural}`,
      summary: `Provision a ${name.toLowerCase()} (SCIM)`,
      subject: scim.create,
      request: { params: scimDirectoryParamsSchema, body: scimResourceSchema },
      response: { status: 201, description: `The created ${name}`, schema: scimResourceSchema },
      examples: scimExamples[name].create,
    }),
    scimOperation({
      operationId: `scimList${plural}`,
      method: 'get',
      path: `/${plural}`,
      aliases: [`/${plural}/`],
      summary: `List or filter ${plural.toLowerCase()} (SCIM)`,
      subject: scim.list,
      request: { params: scimDirectoryParamsSchema, query: scimListQuerySchema },
      response: { status: 200, description: 'A page of resources', schema: scimListResponseSchema },
      examples: scimExamples[name].list,
    }),
    scimOperation({
      operationId: `scimSearch${plural}`,
      method: 'post',
      path: `/${plural}/.search`,
      summary: `Search ${plural.toLowerCase()} with a POST query (SCIM)`,
      subject: scim.search,
      request: { params: scimDirectoryParamsSchema, body: scimSearchRequestSchema },
      response: { status: 200, description: 'A page of resources', schema: scimListResponseSchema },
      examples: scimExamples[name].search,
    }),
    scimOperation({
      operationId: `scimGet${name}`,
      method: 'get',
      path: one,
      summary: `Retrieve a ${name.toLowerCase()} (SCIM)`,
      subject: scim.get,
      request: { params: scimResourceParamsSchema, query: scimResourceQuerySchema },
      response: { status: 200, description: `The ${name}`, schema: scimResourceSchema },
      examples: scimExamples[name].get,
    }),
    scimOperation({
      operationId: `scimReplace${name}`,
      method: 'put',
      path: one,
      summary: `Replace a ${name.toLowerCase()} (SCIM)`,
      subject: scim.replace,
      request: { params: scimResourceParamsSchema, body: scimResourceSchema },
      response: { status: 200, description: `The replaced ${name}`, schema: scimResourceSchema },
      examples: scimExamples[name].replace,
    }),
    scimOperation({
      operationId: `scimPatch${name}`,
      method: 'patch',
      path: one,
      summary: `Modify a ${name.toLowerCase()} with a PatchOp (SCIM)`,
      subject: scim.patch,
      request: { params: scimResourceParamsSchema, body: scimResourceSchema },
      response: { status: 204, description: 'Modified', schema: scimNoContentSchema },
      examples: scimExamples[name].patch,
    }),
    scimOperation({
      operationId: `scimDelete${name}`,
      method: 'delete',
      path: one,
      summary: `Delete a ${name.toLowerCase()} (SCIM)`,
      subject: scim.delete,
      request: { params: scimResourceParamsSchema },
      response: { status: 204, description: 'Deleted', schema: scimNoContentSchema },
      examples: scimExamples[name].delete,
    }),
  ];
}

export const scimOperations = [...discovery, ...resourceOperations('User', 'Users'), ...resourceOperations('Group', 'Groups')];
