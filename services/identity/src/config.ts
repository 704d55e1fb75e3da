import { z } from '@sesame/contracts';
import { baseConfigSchema, refuseOutboxesInProduction, requireStoreUrls } from '@sesame/platform';

export const identityConfigSchema = baseConfigSchema
  .extend({
    /** Public base URL of the gateway: links in emails (admin invitations) start here. */
    SESAME_PUBLIC_URL: z.url().default('http://localhost:8080'),
    /**
     * How long an emailed IT-admin invitation link may be opened (seconds; it works once). One
     * hour: the mail queue retries a delivery for about 23 minutes and greylisting delays a first
     * mail by minutes, so the link must outlive that, while a forwarded or archived email is useless soon after.
     */
    SESAME_INVITATION_LINK_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3_600),
    /** The onboarding session a link opens ends after this long without a call of the page (seconds)... */
    SESAME_ONBOARDING_IDLE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(1_800),
    /** ...and at the latest this long after it opened (seconds). */
    SESAME_ONBOARDING_MAX_SECONDS: z.coerce.number().int().min(1).max(604_800).default(28_800),
  })
  .superRefine(requireStoreUrls)
  .superRefine(refuseOutboxesInProduction('mail'));
export type IdentityConfig = z.infer<typeof identityConfigSchema>;
