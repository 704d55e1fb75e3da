import { z } from '@sesame/contracts';
import { baseConfigSchema, refuseOutboxesInProduction, requireStoreUrls } from '@sesame/platform';
import { parseOrganizationLimits } from './users/plan-limit/user-limits';
import type { UserLimits } from './users/plan-limit/user-limits';

/** A plan's user limit: a whole number, unset or empty for none. */
const userLimit = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.coerce.number().int().min(0).max(999_999_999).optional(),
);

/** An IPv4 address or a bracketed IPv6 one, each with an optional port; or a bare IPv6 address. */
const dnsServerPattern = /^(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|\[[0-9a-f:.]+\](?::\d{1,5})?|[0-9a-f:]+:[0-9a-f:.]*)$/i;

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
    /**
     * The DNS servers that domain verification asks for TXT records, comma-separated IP addresses
     * with an optional port (`192.0.2.53`, `127.0.0.1:5353`, `[2001:db8::53]:53`); empty: the system's resolver.
     */
    SESAME_DNS_SERVERS: z
      .string()
      .default('')
      .transform((value, context) => {
        const servers = value
          .split(',')
          .map((server) => server.trim())
          .filter(Boolean);
        const invalid = servers.filter((server) => !dnsServerPattern.test(server));
        if (invalid.length === 0) return servers;
        context.addIssue({ code: 'custom', message: 'must be IP addresses with an optional port, separated by commas' });
        return z.NEVER;
      }),
    /** The plan's limit on the number of users of all the sandbox organizations together (unset: unlimited). */
    SESAME_USER_LIMIT_SANDBOX: userLimit,
    /** The same for the production organizations. */
    SESAME_USER_LIMIT_PRODUCTION: userLimit,
    /**
     * Limits of single organizations, by domain, in each environment on its own:
     * `acme.com=10,beta.io=5`. A user is created only when its environment and its organization have room.
     */
    SESAME_USER_LIMIT_ORGANIZATIONS: z
      .string()
      .default('')
      .transform((value, context) => {
        const limits = parseOrganizationLimits(value);
        if (limits) return limits;
        context.addIssue({ code: 'custom', message: 'must be domain=number entries separated by commas, each domain once' });
        return z.NEVER;
      }),
  })
  .superRefine(requireStoreUrls)
  .superRefine(refuseOutboxesInProduction('mail'));
export type IdentityConfig = z.infer<typeof identityConfigSchema>;

export const userLimitsOf = (config: IdentityConfig): UserLimits => ({
  environments: { sandbox: config.SESAME_USER_LIMIT_SANDBOX ?? null, production: config.SESAME_USER_LIMIT_PRODUCTION ?? null },
  organizations: config.SESAME_USER_LIMIT_ORGANIZATIONS,
});
