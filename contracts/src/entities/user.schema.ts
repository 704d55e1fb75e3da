import { z } from '../zod';
import { environmentSchema } from '../common/environment.schema';
import { timestampSchema } from '../common/primitives.schema';

export const addressSchema = z
  .object({
    country: z.string().nullable(),
    formatted: z.string().nullable(),
    locality: z.string().nullable(),
    postal_code: z.string().nullable(),
    region: z.string().nullable(),
    street_address: z.string().nullable(),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof addressSchema>;

export const genders = ['male', 'female'] as const;

export const profileSchema = z
  .object({
    birthdate: z.string().nullable().meta({ description: 'YYYY-MM-DD' }),
    family_name: z.string().nullable(),
    given_name: z.string().nullable(),
    gender: z.enum(genders).nullable(),
    locale: z.string().nullable(),
    nickname: z.string().nullable(),
    picture: z.string().nullable(),
    preferred_username: z.string().nullable(),
    website: z.string().nullable(),
    zoneinfo: z.string().nullable(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof profileSchema>;

/** Profile root attributes normalized from identity providers (SPEC.md section 3). */
export const normalizedProfileAttributes = ['name', 'nickname', 'given_name', 'family_name', 'picture'] as const;

export const identitySchema = z
  .object({
    authenticated_at: z.number().int().meta({ description: 'Unix time of the last authentication' }),
    data: z.record(z.string(), z.unknown()),
    idp_id: z.string(),
    provider: z.string().meta({ example: 'saml.okta' }),
  })
  .meta({ id: 'Identity' });
export type Identity = z.infer<typeof identitySchema>;

export const phoneNumberEntrySchema = z
  .object({
    phone_country_code: z.string(),
    phone_national_number: z.string(),
    primary: z.boolean(),
    value: z.string().meta({ description: 'E.164' }),
  })
  .meta({ id: 'PhoneNumber' });

/** A user as identity keeps it: in its events and its answers to the other services. */
export const userSchema = z.object({
  __type__: z.literal('User'),
  __domain__: z.string(),
  __environment__: environmentSchema,
  id: z.uuid(),
  active: z.boolean(),
  email: z.string(),
  email_verified: z.boolean(),
  phone_number: z.string().nullable(),
  phone_number_verified: z.boolean(),
  phone_numbers: z.array(phoneNumberEntrySchema),
  address: addressSchema,
  profile: profileSchema,
  identities: z.array(identitySchema),
  metadata: z.record(z.string(), z.unknown()),
  inserted_at: timestampSchema,
  updated_at: timestampSchema,
});
export type User = z.infer<typeof userSchema>;

/** A user as the API answers it: `meta_data` repeats `metadata` (SPEC.md section 3 names both). */
export const userBodySchema = userSchema
  .extend({
    meta_data: z.record(z.string(), z.unknown()).meta({ description: 'The same as `metadata` (SPEC.md section 3 names both)' }),
  })
  .meta({ id: 'User' });
export type UserBody = z.infer<typeof userBodySchema>;

export const userBody = (user: User): UserBody => ({ ...user, meta_data: user.metadata });
