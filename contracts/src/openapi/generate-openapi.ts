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
import type { OperationExamples } from '../operations/operation-examples';
import { operations } from '../operations';
import { onboardingSessionCookie } from '../operations/admin-onboarding.operations';
import { acceptsIdempotencyKey, idempotencyErrors, idempotencyKeyHeader } from '../operations/idempotency';
import { webhookConfigs } from './webhook-routes';

const idempotencyHeader = {
  [idempotencyKeyHeader]: z.string().min(1).max(255).optional().meta({
    description:
      'Makes the request idempotent for 24 hours: a retry with the same key and the same request answers the first answer again (with `Idempotent-Replayed: true`) without doing the work twice. 1 to 255 printable ASCII characters, scoped to the API key.',
    example: 'f3b1c2a0-5d4e-4c1b-9a7e-2b8c6d0e4f11',
  }),
};

const readAfterHeader = {
  'Sesame-Consistency-Token': z.string().max(96).optional().meta({
    description:
      'Read your writes: the `Sesame-Consistency-Token` a write answered. The replica answering waits (2 s at most) until its read models hold that write.',
    example: 'aWRlbnRpdHk6NDUyMQ',
  }),
};

const consistencyTokenHeader = {
  'Sesame-Consistency-Token': {
    description: 'Names this write: send it back on a read that must see it (read-your-writes across replicas).',
    schema: { type: 'string' as const },
  },
};

/** The request headers an operation documents: the consistency token with an API key, `Idempotency-Key` on its POSTs. */
function requestHeaders(operation: Operation) {
  if (operation.auth !== 'api_key') return {};
  return { headers: z.object({ ...readAfterHeader, ...(acceptsIdempotencyKey(operation) ? idempotencyHeader : {}) }) };
}

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
  Events: 'The public events of an environment, with who caused them: an audit log and a catch-up feed.',
  'Redirect URIs': 'Addresses users are sent back to after signing in.',
  Token: 'OAuth 2.0 tokens, signing keys, user metadata keys and relays.',
  Groups: 'Groups of users provisioned by directory sync.',
  'Gateway Management': 'Reserved for gateway management operations; none are published yet.',
};

/** The answer of the catalogue errors that share a status (403 `inactive_totp` and `authn_connection_not_allowed`...). */
function errorResponse(codes: ErrorCode[]) {
  return {
    description: codes.map((code) => `${code}: ${errorCatalogue[code].message}`).join('; '),
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

const correlationIdHeader = {
  'X-Correlation-Id': {
    description:
      'The id of this request in the logs: the `X-Correlation-Id` the request sent (1 to 128 of `A-Za-z0-9._:-`), or a new UUID',
    schema: { type: 'string' as const, pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
};

const locationHeader = {
  Location: { description: 'Where the browser goes next', schema: { type: 'string' as const, format: 'uri' } },
};

/**
 * Every answer of the gateway carries `X-Correlation-Id`, errors included (redirects also
 * `Location`, the successes of an API key's writes `Sesame-Consistency-Token`).
 */
function withHeaders(operation: Operation, responses: RouteConfig['responses']): RouteConfig['responses'] {
  const writes = operation.auth === 'api_key' && operation.method !== 'get';
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const headers = {
        ...(status.startsWith('3') ? locationHeader : {}),
        ...(writes && status.startsWith('2') ? consistencyTokenHeader : {}),
        ...correlationIdHeader,
      };
      return [status, { ...response, headers: { ...(response as { headers?: object }).headers, ...headers } }];
    }),
  );
}

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

/** The error example on the answer of its status (every media type of that answer). */
function withErrorExample(responses: RouteConfig['responses'], error: OperationExamples['error']): RouteConfig['responses'] {
  const answer = responses[error.status] as { content?: Record<string, object> } | undefined;
  if (!answer?.content) return responses;
  const content = Object.fromEntries(
    Object.entries(answer.content).map(([type, media]) => [type, { ...media, example: error.body }]),
  );
  return { ...responses, [error.status]: { ...answer, content } };
}

/** API keys and directory-sync tokens are Bearer schemes, the onboarding session a cookie; public operations have none. */
export function securityOf(operation: Operation): Record<string, string[]>[] {
  if (operation.auth === 'api_key') return [{ bearerAuth: [] }];
  if (operation.auth === 'scim') return [{ scimBearer: [] }];
  if (operation.auth === 'admin_invitation') return [{ onboardingSession: [] }];
  return [];
}

function routeConfig(operation: Operation): RouteConfig {
  const { request, response, examples } = operation;
  const mediaType = operation.errorStyle === 'scim' ? 'application/scim+json' : 'application/json';
  const responses: RouteConfig['responses'] = {};
  for (const { status, description } of [response, ...(response.others ?? [])]) {
    const example = status === response.status && examples.response !== undefined ? { example: examples.response } : {};
    responses[status] = {
      description,
      ...(status === 204 ? {} : { content: { [response.contentType ?? mediaType]: { schema: response.schema, ...example } } }),
    };
  }
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
    const errors: ErrorCode[] = [
      ...operation.errors,
      ...(operation.auth === 'api_key' ? (['invalid_consistency_token'] as const) : []),
      ...(acceptsIdempotencyKey(operation) ? idempotencyErrors : []),
    ];
    const statuses = new Set(errors.map((code) => errorCatalogue[code].status));
    for (const status of statuses)
      responses[status] = errorResponse(errors.filter((code) => errorCatalogue[code].status === status));
    if (request.body || request.query || request.params) {
      // Catalogue errors answered with 422 (missing_relay_id...) share the status with field errors: either shape.
      const catalogued = errors.filter((code) => errorCatalogue[code].status === 422);
      responses[422] = catalogued.length
        ? {
            description: ['Invalid fields', ...catalogued.map((code) => `${code}: ${errorCatalogue[code].message}`)].join('; '),
            content: { 'application/json': { schema: z.union([errorBodySchema, fieldErrorsBodySchema]) } },
          }
        : { description: 'Invalid fields', content: { 'application/json': { schema: fieldErrorsBodySchema } } };
    }
  }
  if (operation.rateLimits?.length) responses[429] = rateLimitedResponse(operation);
  const body = { schema: request.body, ...(examples.request !== undefined ? { example: examples.request } : {}) };
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
      ...requestHeaders(operation),
      ...(request.body
        ? {
            body: {
              required: true,
              content:
                operation.errorStyle === 'scim'
                  ? { [mediaType]: body }
                  : { 'application/json': body, 'application/x-www-form-urlencoded': body },
            },
          }
        : {}),
    },
    responses: withHeaders(operation, withErrorExample(responses, examples.error)),
  };
}

/** The path parameters of an alias that the operation's own path does not have (`/t/{org_domain}/.well-known`). */
function aliasParams(alias: string, operation: Operation) {
  const names = [...alias.matchAll(/\{(\w+)\}/g)].map(([, name]) => name).filter((name) => !operation.path.includes(`{${name}}`));
  return names.length ? z.object(Object.fromEntries(names.map((name) => [name, z.string().min(1)]))) : undefined;
}

/** The documented aliases of an operation, each its own path with the same answers. */
function aliasConfigs(operation: Operation): RouteConfig[] {
  if (!operation.documentAliases) return [];
  const config = routeConfig(operation);
  return (operation.aliases ?? []).map((alias, index) => {
    const extra = aliasParams(alias, operation);
    const params =
      extra && operation.request.params
        ? (operation.request.params as never as z.ZodObject).extend(extra.shape)
        : (extra ?? operation.request.params);
    return {
      ...config,
      path: alias,
      operationId: `${operation.operationId}Alias${index === 0 ? '' : index + 1}`,
      summary: `${operation.summary} (at ${alias})`,
      description: `The same as \`${operation.method.toUpperCase()} ${operation.path}\`.${operation.description ? ` ${operation.description}` : ''}`,
      request: { ...config.request, ...(params ? { params: params as never } : {}) },
    };
  });
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
  registry.registerComponent('securitySchemes', 'onboardingSession', {
    type: 'apiKey',
    in: 'cookie',
    name: onboardingSessionCookie.name,
    description:
      'The onboarding session that opening an IT-admin invitation link starts in the browser (onboarding page only; HttpOnly, SameSite=Strict).',
  });
  for (const operation of operations)
    for (const config of [routeConfig(operation), ...aliasConfigs(operation)]) registry.registerPath(config);
  for (const config of webhookConfigs()) registry.registerWebhook(config);

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Sesame API',
      version,
      description: 'Identity and authentication for B2B software: organizations, users, SSO, directory sync, webhooks.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      contact: { name: 'The Sesame maintainers (issues of the project repository)' },
    },
    servers: [
      { url: 'http://localhost:8080', description: 'The gateway run locally (`npm start`)' },
      {
        url: '{public_url}',
        description: 'A deployment: its `SESAME_PUBLIC_URL`',
        variables: { public_url: { default: 'https://sesame.example.com' } },
      },
    ],
    tags: apiTags.map((name) => ({ name, description: tagDescriptions[name] })),
  });
  return { ...document, 'x-tagGroups': tagGroups };
}
