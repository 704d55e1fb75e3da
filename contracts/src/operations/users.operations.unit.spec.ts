import { createUserBodySchema, updateUserBodySchema } from './users.operations';
import { parsePhoneNumber } from '../common/phone.schema';

const errorsOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('user request schemas', () => {
  it('normalizes phone numbers to E.164, idempotently (the gateway and the service both validate)', () => {
    const once = createUserBodySchema.parse({
      email: 'a@b.co',
      phone_number: '+33 6 12 34 56 78',
      phone_numbers: [{ value: '+44 20 7946 0958' }],
    });
    expect(once.phone_number).toBe('+33612345678');
    expect(createUserBodySchema.parse(once)).toEqual(once);
  });

  it.each([
    ['+33 1', 'not a phone number'],
    ['abc', 'not a phone number'],
    ['0612345678', 'invalid country calling code'],
    ['+999123456', 'invalid country calling code'],
  ])('refuses the phone number %s: %s', (value, message) => {
    expect(errorsOf(createUserBodySchema.safeParse({ email: 'a@b.co', phone_number: value }))).toEqual({ phone_number: message });
  });

  it('splits a phone number into its country code and national number', () => {
    expect(parsePhoneNumber('+1 415 555 2671')).toEqual({
      value: '+14155552671',
      phone_country_code: '1',
      phone_national_number: '4155552671',
    });
  });

  it('speaks the words of SPEC.md section 5 for emails', () => {
    expect(errorsOf(createUserBodySchema.safeParse({}))).toEqual({ email: "can't be blank" });
    expect(errorsOf(createUserBodySchema.safeParse({ email: ' ' }))).toEqual({ email: "can't be blank" });
    expect(errorsOf(createUserBodySchema.safeParse({ email: 'nope' }))).toEqual({ email: 'invalid_format' });
    expect(errorsOf(updateUserBodySchema.safeParse({ profile: {} }))).toEqual({ email: "can't be blank" });
  });

  it('checks profile dates, genders and unknown attributes, and reads form values', () => {
    expect(errorsOf(createUserBodySchema.safeParse({ email: 'a@b.co', profile: { birthdate: '2001-02-29' } }))).toEqual({
      'profile.birthdate': 'must be a date in the format YYYY-MM-DD',
    });
    expect(createUserBodySchema.parse({ email: 'a@b.co', profile: { birthdate: '2000-02-29' } }).profile?.birthdate).toBe(
      '2000-02-29',
    );
    expect(errorsOf(createUserBodySchema.safeParse({ email: 'a@b.co', profile: { gender: 'x' } }))).toEqual({
      'profile.gender': 'must be male, female or null',
    });
    expect(createUserBodySchema.parse({ email: 'a@b.co', profile: { gender: '' } }).profile?.gender).toBeNull();
    expect(errorsOf(createUserBodySchema.safeParse({ email: 'a@b.co', address: { planet: 'Mars' } }))).toEqual({
      address: 'has unknown fields: planet',
    });
    expect(createUserBodySchema.parse({ email: 'a@b.co', email_verified: 'true' }).email_verified).toBe(true);
    expect(errorsOf(createUserBodySchema.safeParse({ email: 'a@b.co', phone_numbers: { value: '+33612345678' } }))).toEqual({
      phone_numbers: 'must be an array',
    });
  });
});

describe('meta_data, the other name of metadata', () => {
  it('is read as metadata, on create and on update', () => {
    expect(createUserBodySchema.parse({ email: 'a@b.co', meta_data: { crm_id: 'C-1' } })).toEqual({
      email: 'a@b.co',
      metadata: { crm_id: 'C-1' },
    });
    expect(updateUserBodySchema.parse({ email: 'a@b.co', meta_data: {} })).toEqual({ email: 'a@b.co', metadata: {} });
  });

  it('may repeat metadata, and reads the same once validated again (the gateway and the service both validate)', () => {
    const once = createUserBodySchema.parse({ email: 'a@b.co', metadata: { a: 1, b: 'x' }, meta_data: { b: 'x', a: 1 } });
    expect(once).toEqual({ email: 'a@b.co', metadata: { a: 1, b: 'x' } });
    expect(createUserBodySchema.parse(once)).toEqual(once);
  });

  it.each([
    [{ a: 1 }, { a: 2 }],
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1 }, {}],
  ])('refuses metadata %j with a different meta_data %j', (metadata, meta_data) => {
    expect(errorsOf(updateUserBodySchema.safeParse({ email: 'a@b.co', metadata, meta_data }))).toEqual({
      meta_data: 'must be the same as metadata when both are given (meta_data is another name for metadata)',
    });
  });

  it('checks meta_data as metadata', () => {
    const invalid = { '1bad': 'x', ok: { nested: true } };
    const asMetadata = errorsOf(createUserBodySchema.safeParse({ email: 'a@b.co', metadata: invalid }));
    expect(Object.keys(asMetadata)).toEqual(['metadata.1bad', 'metadata.ok']);
    expect(errorsOf(createUserBodySchema.safeParse({ email: 'a@b.co', meta_data: invalid }))).toEqual({
      'meta_data.1bad': asMetadata['metadata.1bad'],
      'meta_data.ok': asMetadata['metadata.ok'],
    });
  });
});
