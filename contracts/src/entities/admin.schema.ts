import { z } from '../zod';
import { timestampSchema } from '../common/primitives.schema';

export const adminSchema = z
  .object({
    __type__: z.literal('Admin'),
    __domain__: z.string(),
    __environment__: z.enum(['sandbox', 'production']),
    id: z.uuid(),
    email: z.string(),
    organization: z.string().meta({ description: 'Domain of the organization' }),
    color: z.string().nullable(),
    invited_at: timestampSchema.nullable(),
    accepted_invitation_at: timestampSchema.nullable(),
    declined_to_be_in_charge_at: timestampSchema.nullable(),
    last_login_at: timestampSchema.nullable(),
  })
  .meta({ id: 'Admin' });
export type Admin = z.infer<typeof adminSchema>;

/**
 * What the vendor lets an invited IT admin set up on the onboarding page (per invitation; SSO
 * only by default). Every call of the page that sets one up is refused for an invitation without it.
 */
export const onboardingSetups = ['sso', 'directory_sync', 'domains'] as const;
export const onboardingSetupSchema = z.enum(onboardingSetups, { error: `must be one of ${onboardingSetups.join(', ')}` });
export type OnboardingSetup = z.infer<typeof onboardingSetupSchema>;
export const defaultOnboardingSetups: OnboardingSetup[] = ['sso'];

/**
 * What the onboarding page shows: the admin, their organization, and the onboarding session the
 * invitation link opened in this browser.
 */
export const adminInvitationSchema = z
  .object({
    admin: adminSchema,
    organization: z.object({
      domain: z.string(),
      name: z.string(),
      allowed_email_domains: z.array(z.string()).meta({ description: 'Email domains that will sign in with SSO' }),
      locale: z.string().nullable().meta({ description: 'Language of the page when the link does not choose one' }),
    }),
    allowed_setups: z
      .array(onboardingSetupSchema)
      .meta({ description: 'What the invitation lets the admin set up on the page (`sso`, `directory_sync`)' }),
    session: z.object({
      expires_at: timestampSchema.meta({ description: 'When the onboarding session ends at the latest' }),
      idle_timeout_seconds: z
        .number()
        .int()
        .positive()
        .meta({ description: 'The session also ends after this long without a call of the page' }),
    }),
  })
  .meta({ id: 'AdminInvitation' });
export type AdminInvitation = z.infer<typeof adminInvitationSchema>;
