import { fieldErrorsFromZod } from './errors';
import { freeFormObjectSchema, jsonDepth } from './free-form.schema';
import { ssoConnectionBodySchema } from '../operations/sso.operations';
import { createUserBodySchema } from '../operations/users.operations';
import { scimResourceSchema } from '../operations/scim.operations';
import { identityInputSchema } from '../rpc/identity.rpc';

/** `{ a: { a: … 'x' } }`, `depth` objects deep. */
function nested(depth: number): Record<string, unknown> {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level++) value = { a: value };
  return value as Record<string, unknown>;
}

const errorsOf = (schema: { safeParse(value: unknown): { success: boolean; error?: unknown } }, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? {} : fieldErrorsFromZod(parsed.error as never);
};

describe('jsonDepth', () => {
  it.each([
    ['a scalar', 'x', 0],
    ['an empty object', {}, 1],
    ['an array of scalars', [1, 'a'], 1],
    ['objects in arrays', { a: [{ b: [1] }] }, 4],
    ['the deepest branch', { shallow: 1, deep: { a: { b: {} } } }, 4],
  ])('%s', (_case, value, depth) => {
    expect(jsonDepth(value)).toBe(depth);
  });

  it('stops past its limit, without recursion, on a value nested a hundred thousand levels deep', () => {
    expect(jsonDepth(nested(100_000), 10)).toBe(11);
  });
});

describe('free-form fields', () => {
  const schema = freeFormObjectSchema({ maxDepth: 3, maxBytes: 50 });

  it('accepts any object within the bounds', () => {
    expect(schema.parse({ a: { b: [1] } })).toEqual({ a: { b: [1] } });
  });

  it('refuses one nested deeper, or larger as JSON, with a field error', () => {
    expect(errorsOf(schema, { a: { b: [{}] } })).toEqual({ base: ['must be nested at most 3 levels deep'] });
    expect(errorsOf(schema, { a: 'é'.repeat(30) })).toEqual({ base: ['must be at most 50 bytes as JSON'] });
    expect(errorsOf(schema, [1])).toEqual({ base: ['must be an object'] });
  });

  // Regression (issue 16): these fields accepted JSON of any depth and size, which reached the
  // services, the event store and the read models.
  it('bounds an SSO connection’s onboarding to 10 levels and 16 KB', () => {
    expect(errorsOf(ssoConnectionBodySchema, { onboarding: nested(10) })).toEqual({});
    expect(errorsOf(ssoConnectionBodySchema, { onboarding: nested(11) })).toEqual({
      onboarding: ['must be nested at most 10 levels deep'],
    });
    expect(errorsOf(ssoConnectionBodySchema, { onboarding: nested(5_000) })).toEqual({
      onboarding: ['must be nested at most 10 levels deep'],
    });
    expect(errorsOf(ssoConnectionBodySchema, { onboarding: { notes: 'x'.repeat(16_400) } })).toEqual({
      onboarding: ['must be at most 16384 bytes as JSON'],
    });
    expect(errorsOf(ssoConnectionBodySchema, { onboarding: null })).toEqual({});
  });

  it('bounds SCIM resources and the data a sign-in records to 10 levels', () => {
    const manager = { 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { manager: { value: 'm' } } };
    expect(errorsOf(scimResourceSchema, { userName: 'ada', ...manager })).toEqual({});
    expect(errorsOf(scimResourceSchema, { Operations: [{ op: 'add', value: nested(8) }] })).toEqual({
      base: ['must be nested at most 10 levels deep'],
    });
    const identity = { provider: 'saml.okta', idp_id: 'ada', authenticated_at: 1 };
    expect(errorsOf(identityInputSchema, { ...identity, data: { attributes: { email: ['a@b.c'] } } })).toEqual({});
    expect(errorsOf(identityInputSchema, { ...identity, data: nested(11) })).toEqual({
      data: ['must be nested at most 10 levels deep'],
    });
  });

  it('refuses any user id chosen by the caller, whatever its shape', () => {
    const message = { id: ['is assigned by Sesame and cannot be chosen'] };
    expect(errorsOf(createUserBodySchema, { email: 'ada@acme.com' })).toEqual({});
    expect(errorsOf(createUserBodySchema, { email: 'ada@acme.com', id: 'mine' })).toEqual(message);
    expect(errorsOf(createUserBodySchema, { email: 'ada@acme.com', id: nested(3_000) })).toEqual(message);
  });
});
