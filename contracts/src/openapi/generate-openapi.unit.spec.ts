import { webhookEventCodes } from '../events/webhook-catalogue';
import { operations } from '../operations';
import { generateOpenApiDocument } from './generate-openapi';

describe('OpenAPI document', () => {
  const document = generateOpenApiDocument() as any;

  it('documents every operation of the table once, with its tag and security', () => {
    for (const operation of operations) {
      const entry = document.paths[operation.path]?.[operation.method];
      expect(entry).toBeDefined();
      expect(entry.operationId).toBe(operation.operationId);
      expect(entry.tags).toEqual([operation.tag]);
      const schemes = {
        api_key: [{ bearerAuth: [] }],
        scim: [{ scimBearer: [] }],
        admin_invitation: [{ onboardingSession: [] }],
        none: [],
      };
      expect(entry.security).toEqual(schemes[operation.auth]);
      expect(entry.responses[String(operation.response.status)]).toBeDefined();
    }
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('publishes the delivery of every catalogue code as a webhook, its event typed by the code', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...webhookEventCodes].sort());
    const created = document.webhooks['user.created'].post;
    expect(created.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UserCreatedEvent' });
    expect(created.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const event = document.components.schemas.UserCreatedEvent;
    expect(event.properties.code).toEqual({ type: 'string', enum: ['user.created'] });
    expect(event.properties.data).toEqual({ $ref: '#/components/schemas/UserCreatedEventData' });
    expect(Object.keys(document.components.schemas.UserCreatedEventData.properties)).toEqual([
      'organization_domain',
      'organization_id',
      'user',
      'source',
    ]);
    expect(document.components.schemas.Event.anyOf).toHaveLength(webhookEventCodes.length + 1);
  });

  it('documents the onboarding session cookie, and the cross-site refusal of every onboarding call', () => {
    expect(document.components.securitySchemes.onboardingSession).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'sesame_onboarding',
    });
    const onboarding = operations.filter((operation) => operation.path.startsWith('/api/v2/admin-invitations/'));
    expect(onboarding.length).toBeGreaterThanOrEqual(9);
    for (const operation of onboarding) {
      expect([operation.operationId, operation.sameOrigin]).toEqual([operation.operationId, true]);
      const responses = document.paths[operation.path][operation.method].responses;
      expect(responses['403'].description).toMatch(
        /^cross_site_request: Cross-site request refused: only the onboarding page of this Sesame may make this call(; onboarding_setup_not_allowed: .+)?$/,
      );
      if (operation.onboardingSetup) expect(responses['403'].description).toContain('onboarding_setup_not_allowed: ');
      if (operation.auth === 'admin_invitation') expect(responses['401'].description).toMatch(/^onboarding_session_required: /);
    }
  });

  it('groups tags as SPEC.md section 2 says', () => {
    expect(document['x-tagGroups'].map((group: { name: string }) => group.name)).toEqual([
      'User Directories',
      'Authentications',
      'Admins',
      'Others',
      'Groups',
      'Gateway Management',
    ]);
    expect(document['x-tagGroups'][0].tags).toEqual(['Organizations', 'Users', 'Directory Syncs']);
  });

  it('documents 429 with Retry-After on every rate-limited operation, in its error style, and only there', () => {
    const retryAfter = { description: expect.any(String), schema: { type: 'integer', minimum: 1 } };
    for (const operation of operations) {
      const entry = document.paths[operation.path][operation.method];
      if (!operation.rateLimits) {
        expect([operation.operationId, entry.responses['429']]).toEqual([operation.operationId, undefined]);
        continue;
      }
      expect(entry.responses['429'].headers['Retry-After']).toEqual(retryAfter);
    }
    const token = document.paths['/oauth/token'].post.responses['429'];
    expect(token.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/OAuthError' });
    const scim = document.paths['/scim/v2/{directory_id}/Users'].post.responses['429'];
    expect(scim.content['application/scim+json'].schema).toEqual({ $ref: '#/components/schemas/ScimError' });
    const totp = document.paths['/api/v2/org/{org_domain}/totp-challenge/validation/{user_id}'].put.responses['429'];
    expect(totp.description).toBe(
      'too_many_requests: Too Many Requests; rate_limited: Too many requests: retry after the number of seconds in the Retry-After header',
    );
  });

  it('accepts JSON and form bodies and documents the error shapes', () => {
    const create = document.paths['/api/v2/organizations'].post;
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(create.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    const update = document.paths['/api/v2/organizations/{org_domain}'].put;
    expect(update.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FieldErrors' });
  });

  it('documents Sesame-Consistency-Token on every operation of an API key (answered by its writes), and nowhere else', () => {
    for (const operation of operations) {
      const entry = document.paths[operation.path][operation.method];
      const headers = (entry.parameters ?? []).filter((parameter: { in: string }) => parameter.in === 'header');
      const apiKey = operation.auth === 'api_key';
      const named = headers.some((header: { name: string }) => header.name === 'Sesame-Consistency-Token');
      expect([operation.operationId, named]).toEqual([operation.operationId, apiKey]);
      const answered = Object.entries(entry.responses as Record<string, { headers?: object }>)
        .filter(([status]) => status.startsWith('2'))
        .some(([, response]) => Object.keys(response.headers ?? {}).includes('Sesame-Consistency-Token'));
      expect([operation.operationId, answered]).toEqual([operation.operationId, apiKey && operation.method !== 'get']);
      if (apiKey) expect(entry.responses['400'].description).toContain('invalid_consistency_token');
    }
  });

  it('documents Idempotency-Key and its errors on every POST of an API key, and nowhere else', () => {
    for (const operation of operations) {
      const entry = document.paths[operation.path][operation.method];
      const header = (entry.parameters ?? []).find(
        (parameter: { in: string; name: string }) => parameter.in === 'header' && parameter.name === 'Idempotency-Key',
      );
      const idempotent = operation.method === 'post' && operation.auth === 'api_key';
      expect([operation.operationId, header?.name]).toEqual([operation.operationId, idempotent ? 'Idempotency-Key' : undefined]);
      if (!idempotent) continue;
      expect(header.required).toBe(false);
      expect(header.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
      expect(entry.responses['400'].description).toContain('invalid_idempotency_key');
      expect(entry.responses['409'].description).toContain('idempotency_request_in_progress');
      expect(entry.responses['422'].description).toContain('idempotency_key_reused');
    }
    expect(document.paths['/oauth/token'].post.parameters ?? []).toEqual([]);
  });

  // Regression (hostile-input fuzzer): POST /api/v2/password answers 422 unknown_password_code in the
  // error shape, but the document showed only field errors for 422.
  it('documents both shapes when an error code shares its status with field errors', () => {
    const create = document.paths['/api/v2/password'].post;
    expect(create.responses['422'].description).toBe(
      'Invalid fields; unknown_password_code: The provided password_code is not valid...; idempotency_key_reused: This Idempotency-Key was used with another request: send a new key for a different request',
    );
    expect(create.responses['422'].content['application/json'].schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/FieldErrors' }],
    });
  });

  it('describes every catalogue error of a status, not only the last one', () => {
    const challenge = document.paths['/api/v2/org/{org_domain}/totp-challenge/{user_id}'].post;
    expect(challenge.responses['403'].description).toBe(
      "inactive_totp: Your TOTP strategy is inactive; authn_connection_not_allowed: This sign-in method is not in the organization's allowed_authn_connections",
    );
  });

  it('documents X-Correlation-Id on every answer, errors included, and Location on redirects', () => {
    for (const item of Object.values<any>(document.paths))
      for (const entry of Object.values<any>(item))
        for (const [status, response] of Object.entries<any>(entry.responses)) {
          expect(response.headers['X-Correlation-Id'].schema).toEqual({ type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' });
          expect(response.headers.Location !== undefined).toBe(status.startsWith('3'));
        }
  });

  it('documents the token alias and the organization JWKS path the JWT guide uses, as the same operations', () => {
    const alias = document.paths['/api/v2/oauth/token'].post;
    expect(alias.operationId).toBe('issueTokenAlias');
    expect(alias.responses).toEqual(document.paths['/oauth/token'].post.responses);
    const jwks = document.paths['/t/{org_domain}/.well-known'].get;
    expect(jwks.operationId).toBe('getJwksAlias');
    expect(jwks.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'org_domain', required: true, schema: { type: 'string', minLength: 1 } }),
    ]);
    expect(jwks.responses).toEqual(document.paths['/.well-known/jwks.json'].get.responses);
  });

  it('names a path parameter the same at the same position (no ambiguous paths), with the license and an http local server', () => {
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/v2/org/{org_domain}/users/{'))).toEqual([
      '/api/v2/org/{org_domain}/users/{id}',
      '/api/v2/org/{org_domain}/users/{id}/erasure',
      '/api/v2/org/{org_domain}/users/{id}/add-metadata',
      '/api/v2/org/{org_domain}/users/{id}/remove-metadata',
    ]);
    expect(document.paths['/api/v2/org/{org_domain}/users/{id}'].get.parameters[1].description).toBe(
      'The user id (uuid) or email address',
    );
    expect(document.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
    expect(document.servers[0].url).toBe('http://localhost:8080');
  });
});
