import { z } from '../zod';
import { timestampSchema } from '../common/primitives.schema';

export const magicLinkConnectionSchema = z
  .object({
    id: z.uuid(),
    active: z.boolean(),
    find_or_create_user: z.boolean(),
    sign_in_template_id: z.string().nullable(),
  })
  .meta({ id: 'MagicLinkConnection' });
export type MagicLinkConnection = z.infer<typeof magicLinkConnectionSchema>;

export const magicLinkChallengeSchema = z
  .object({
    code: z.string().nullable(),
    email_address: z.string(),
    find_or_create_user: z.boolean(),
    magic_link: z.string().nullable(),
    request_id: z.uuid(),
  })
  .meta({ id: 'MagicLinkChallenge' });
export type MagicLinkChallenge = z.infer<typeof magicLinkChallengeSchema>;

export const passwordConnectionSchema = z
  .object({
    id: z.uuid().meta({
      description:
        'Stable: named by the organization and the environment, the same before the connection is created (its defaults apply) and after',
    }),
    active: z.boolean(),
    pepper_rotation_period: z.number().int(),
    plain_text_min_length: z.number().int(),
    plain_text_max_length: z.number().int(),
  })
  .meta({ id: 'PasswordConnection' });

export const passwordSchema = z.object({ id: z.uuid(), user_id: z.uuid(), code: z.string().nullable() }).meta({ id: 'Password' });

export const passwordChallengeSchema = z
  .object({
    code: z.string().nullable(),
    error: z.string().nullable(),
    expired_at: timestampSchema.nullable(),
    password_id: z.uuid().nullable(),
    renew_password: z.boolean(),
    request_id: z.uuid(),
    user_id: z.uuid().nullable(),
    'valid?': z.boolean(),
  })
  .meta({ id: 'PasswordChallenge' });

export const passwordRequestSchema = z
  .object({
    request_id: z.uuid(),
    user_id: z.uuid().nullable(),
    expired_at: timestampSchema,
    magic_link: z.string().nullable(),
    redirect_uri: z.string(),
  })
  .meta({ id: 'PasswordRequest' });

export const totpMethods = ['totp_mobile_app', 'sms'] as const;

export const totpConnectionSchema = z
  .object({
    active: z.boolean(),
    method: z.enum(totpMethods),
    expiry_in_seconds: z.number().int().min(30).max(900),
  })
  .meta({ id: 'TotpConnection' });
export type TotpConnection = z.infer<typeof totpConnectionSchema>;
export type TotpMethod = TotpConnection['method'];

export const totpEnrollmentSchema = z
  .object({
    email: z.string(),
    enrolled_totp_at: timestampSchema.nullable(),
    enrolled_at: timestampSchema
      .nullable()
      .meta({ description: 'The same as `enrolled_totp_at` (SPEC.md section 3 names both)' }),
    enrollment_totp_nb: z.number().int(),
    enrollment_nb: z.number().int().meta({ description: 'The same as `enrollment_totp_nb` (SPEC.md section 3 names both)' }),
    first_verification_code: z.string().nullable(),
    last_recovery_acknowledgement_at: timestampSchema.nullable(),
    last_recovery_code_at: timestampSchema.nullable(),
    recovery_codes: z.string().nullable().meta({ description: 'Newline-separated' }),
    uri: z.string().nullable(),
    validated_enrollment_at: timestampSchema.nullable(),
  })
  .meta({ id: 'TotpEnrollment' });
export type TotpEnrollment = z.infer<typeof totpEnrollmentSchema>;

export const totpChallengeSchema = z
  .object({
    request_id: z.uuid(),
    sent_at: timestampSchema.nullable(),
    challenged_at: timestampSchema.nullable(),
    code: z.string().nullable(),
    success: z.boolean(),
    recovery_code_used: z.boolean(),
  })
  .meta({ id: 'TotpChallenge' });
export type TotpChallenge = z.infer<typeof totpChallengeSchema>;
