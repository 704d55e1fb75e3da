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
