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
      const scheme = operation.auth === 'api_key' ? [{ bearerAuth: [] }] : operation.auth === 'scim' ? [{ scimBearer: [] }] : [];
      expect(entry.security).toEqual(scheme);
      expect(entry.responses[String(operation.response.status)]).toBeDefined();
    }
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
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
      expect(entry.responses['429'].headers).toEqual({ 'Retry-After': retryAfter });
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
    expect(create.responses['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FieldErrors' });
    expect(create.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
  });

  // Regression (hostile-input fuzzer): POST /api/v2/password answers 422 unknown_password_code in the
  // error shape, but the document showed only field errors for 422.
  it('documents both shapes when an error code shares its status with field errors', () => {
    const create = document.paths['/api/v2/password'].post;
    expect(create.responses['422'].description).toBe(
      'Invalid fields; unknown_password_code: The provided password_code is not valid...',
    );
    expect(create.responses['422'].content['application/json'].schema).toEqual({
      anyOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/FieldErrors' }],
    });
  });
});
