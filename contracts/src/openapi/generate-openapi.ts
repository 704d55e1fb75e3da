import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import {
  errorBodySchema,
  errorCatalogue,
  fieldErrorsBodySchema,
  oauthErrorBodySchema,
  scimErrorBodySchema,
} from '../common/errors';
import type { ErrorCode } from '../common/errors';
import { z } from '../zod';
import { apiTags, tagGroups } from '../operations/operation';
import type { Operation } from '../operations/operation';
import { operations } from '../operations';

const tagDescriptions: Record<(typeof apiTags)[number], string> = {
  Organizations: 'Customer organizations, their allowed email domains and environments.',
  Users: 'End users of an organization, per environment.',
  'Directory Syncs': 'SCIM 2.0 directory synchronisation from identity providers.',
  SSO: 'SAML single sign-on connections and challenges.',
  Password: 'Password connections, passwords and password challenges.',
  'Magic Link': 'Sign-in links sent by email.',
  TOTP: 'One-time codes by authenticator app or SMS.',
  Admins: 'IT administrators in charge of an organization’s single sign-on.',
  'Webhook Setup': 'Webhooks receiving the events of an environment.',
  'Webhook Events': 'Delivery jobs of webhook events.',
  'Redirect URIs': 'Addresses users are sent back to after signing in.',
  Token: 'OAuth 2.0 tokens, signing keys, user metadata keys and relays.',
  Groups: 'Groups of users provisioned by directory sync.',
  'Gateway Management': 'Reserved for gateway management operations; none are published yet.',
};

function errorResponse(code: ErrorCode) {
  const entry = errorCatalogue[code];
  return {
    description: `${code}: ${entry.message}`,
    content: { 'application/json': { schema: errorBodySchema } },
  };
}

const scimErrors = {
  400: 'invalidFilter, invalidSyntax, invalidValue, invalidPath, mutability, noTarget',
  401: 'Missing or wrong bearer token of the directory sync',
  403: 'The directory sync is inactive',
  404: 'Unknown resource',
  409: 'uniqueness: the userName is taken in this directory',
  412: 'If-Match does not match the resource version',
};

const retryAfterHeader = {
  'Retry-After': {
    description: 'Seconds to wait before the budget allows this request again',
    schema: { type: 'integer' as const, minimum: 1 },
  },
};

/** The 429 of an operation with rate limits, in its error style; TOTP's lock-out shares the status. */
function rateLimitedResponse(operation: Operation) {
  const style = operation.errorStyle ?? 'api';
  if (style === 'oauth')
    return {
      description: 'slow_down: over a rate limit',
      headers: retryAfterHeader,
      content: { 'application/json': { schema: oauthErrorBodySchema } },
    };
  if (style === 'scim')
    return {
      description: 'Over a rate limit',
      headers: retryAfterHeader,
      content: { 'application/scim+json': { schema: scimErrorBodySchema } },
    };
  const codes = [
    ...new Set([...operation.errors.filter((code) => errorCatalogue[code].status === 429), 'rate_limited' as const]),
  ];
  return {
    description: codes.map((code) => `${code}: ${errorCatalogue[code].message}`).join('; '),
    headers: retryAfterHeader,
    content: { 'application/json': { schema: errorBodySchema } },
  };
}

/** API keys and directory-sync tokens are Bearer schemes; public and invitation operations have none. */
export function securityOf(operation: Operation): Record<string, string[]>[] {
  if (operation.auth === 'api_key') return [{ bearerAuth: [] }];
  if (operation.auth === 'scim') return [{ scimBearer: [] }];
  return [];
}

function routeConfig(operation: Operation): RouteConfig {
  const { request, response } = operation;
  const mediaType = operation.errorStyle === 'scim' ? 'application/scim+json' : 'application/json';
  const responses: RouteConfig['responses'] = {
    [response.status]: {
      description: response.description,
      ...(response.status === 204 ? {} : { content: { [response.contentType ?? mediaType]: { schema: response.schema } } }),
    },
  };
  if (operation.errorStyle === 'scim') {
    for (const [status, description] of Object.entries(scimErrors))
      responses[status] = { description, content: { [mediaType]: { schema: scimErrorBodySchema } } };
  } else if (operation.errorStyle === 'oauth') {
    responses[400] = { description: 'OAuth error', content: { 'application/json': { schema: oauthErrorBodySchema } } };
    responses[401] = {
      description: 'Client authentication failed',
      content: { 'application/json': { schema: oauthErrorBodySchema } },
    };
  } else {
    for (const code of operation.errors) responses[errorCatalogue[code].status] = errorResponse(code);
    if (request.body || request.query || request.params) {
      // Catalogue errors answered with 422 (missing_relay_id...) share the status with field errors: either shape.
      const catalogued = operation.errors.filter((code) => errorCatalogue[code].status === 422);
      responses[422] = catalogued.length
        ? {
            description: ['Invalid fields', ...catalogued.map((code) => `${code}: ${errorCatalogue[code].message}`)].join('; '),
            content: { 'application/json': { schema: z.union([errorBodySchema, fieldErrorsBodySchema]) } },
          }
        : { description: 'Invalid fields', content: { 'application/json': { schema: fieldErrorsBodySchema } } };
    }
  }
  if (operation.rateLimits?.length) responses[429] = rateLimitedResponse(operation);
  return {
    method: operation.method,
    path: operation.path,
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [operation.tag],
    security: securityOf(operation),
    request: {
      ...(request.params ? { params: request.params as never } : {}),
      ...(request.query ? { query: request.query as never } : {}),
      ...(request.body
        ? {
            body: {
              required: true,
              content:
                operation.errorStyle === 'scim'
                  ? { [mediaType]: { schema: request.body } }
                  : {
                      'application/json': { schema: request.body },
                      'application/x-www-form-urlencoded': { schema: request.body },
                    },
            },
          }
        : {}),
    },
    responses,
  };
}

/** The OpenAPI 3.1 document of the gateway, generated from the operation table. */
export function generateOpenApiDocument(version = '0.1.0') {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An access token obtained with `grant_type=client_credentials` from an API key.',
  });
  registry.registerComponent('securitySchemes', 'scimBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'The `auth_secret_token` value of the directory sync (SCIM endpoints only).',
  });
  for (const operation of operations) registry.registerPath(routeConfig(operation));

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Sesame API',
      version,
      description: 'Identity and authentication for B2B software: organizations, users, SSO, directory sync, webhooks.',
    },
    servers: [{ url: 'https://{host}', variables: { host: { default: 'localhost:8080' } } }],
    tags: apiTags.map((name) => ({ name, description: tagDescriptions[name] })),
  });
  return { ...document, 'x-tagGroups': tagGroups };
}
