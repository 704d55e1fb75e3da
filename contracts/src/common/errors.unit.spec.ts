import { z } from '../zod';
import {
  catalogueError,
  fieldError,
  fieldErrorsFromZod,
  oauthError,
  reasonOf,
  refusedField,
  scimError,
  statusOf,
} from './errors';
import { booleanInputSchema, domainNameSchema, integerInputSchema, listInputSchema } from './primitives.schema';

const errorsOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? {} : fieldErrorsFromZod(parsed.error);
};

describe('field errors in the words of SPEC.md section 5', () => {
  const user = z.object({ email: z.email(), name: z.string().min(1), age: z.number().int().max(130), kind: z.enum(['a', 'b']) });

  it('says "can\'t be blank" for a missing or empty value', () => {
    expect(errorsOf(user, { email: 'a@b.co', age: 1, kind: 'a' })).toEqual({ name: ["can't be blank"] });
    expect(errorsOf(user, { email: 'a@b.co', name: '', age: 1, kind: 'a' })).toEqual({ name: ["can't be blank"] });
    expect(errorsOf(user, { email: null, name: 'x', age: 1, kind: 'a' })).toEqual({ email: ["can't be blank"] });
  });

  it('says invalid_format for an email', () =>
    expect(errorsOf(user, { email: 'nope', name: 'x', age: 1, kind: 'a' })).toEqual({ email: ['invalid_format'] }));

  it('names types, bounds and allowed values', () =>
    expect(errorsOf(user, { email: 'a@b.co', name: 3, age: 200, kind: 'c' })).toEqual({
      name: ['must be a string'],
      age: ['must be less than or equal to 130'],
      kind: ['must be one of: a, b'],
    }));

  it('keys nested and array fields by their dotted path, "base" for the root', () => {
    expect(errorsOf(z.object({ profile: z.object({ list: z.array(z.string()) }) }), { profile: { list: ['a', 1] } })).toEqual({
      'profile.list.1': ['must be a string'],
    });
    expect(errorsOf(z.object({}), 'text')).toEqual({ base: ['must be an object'] });
  });

  it('maps error kinds to HTTP statuses', () => {
    expect(statusOf({ kind: 'fields', fields: {} })).toBe(422);
    expect(statusOf({ kind: 'error', code: 'directory_sync_already_exists' })).toBe(409);
    expect(statusOf({ kind: 'oauth', code: 'invalid_client', description: '' })).toBe(401);
  });
});

describe('form input coercion', () => {
  it('reads booleans, integers and lists sent as form strings', () => {
    expect(booleanInputSchema.parse('true')).toBe(true);
    expect(booleanInputSchema.parse('0')).toBe(false);
    expect(booleanInputSchema.safeParse('maybe').success).toBe(false);
    expect(integerInputSchema.parse(' 12 ')).toBe(12);
    expect(integerInputSchema.safeParse('1.5').success).toBe(false);
    expect(listInputSchema(z.string()).parse('one')).toEqual(['one']);
  });

  it('normalizes domain names', () => {
    expect(domainNameSchema.parse(' ACME.com ')).toBe('acme.com');
    for (const bad of ['acme', '-acme.com', 'ac me.com', 'acme..com'])
      expect(domainNameSchema.safeParse(bad).success).toBe(false);
  });
});

describe('the reason code of a refusal, what callers branch on', () => {
  it('is the code of a catalogue, OAuth or SCIM error', () => {
    expect(reasonOf(catalogueError('resource_not_found', 'No such user'))).toBe('resource_not_found');
    expect(reasonOf(oauthError('invalid_grant', 'expired'))).toBe('invalid_grant');
    expect(reasonOf(scimError(409, 'taken', 'uniqueness'))).toBe('uniqueness');
    expect(reasonOf(scimError(404, 'gone'))).toBeUndefined();
  });

  it('is the field refusal, carried next to its message on the wire', () => {
    expect(refusedField('email', 'taken')).toEqual({
      kind: 'fields',
      fields: { email: ['has already been taken'] },
      reason: 'taken',
    });
    expect(reasonOf(refusedField('domain', 'taken'))).toBe('taken');
  });

  it('is absent from a field error without one, whatever its message says', () => {
    expect(reasonOf({ kind: 'fields', fields: { name: ["can't be blank"], email: ['has already been taken'] } })).toBeUndefined();
    expect(reasonOf(fieldError('email', 'invalid_format'))).toBeUndefined();
  });
});
