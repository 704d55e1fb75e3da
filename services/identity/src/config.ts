import { z } from '@sesame/contracts';
import { baseConfigSchema, requireStoreUrls } from '@sesame/platform';

export const identityConfigSchema = baseConfigSchema
  .extend({
    /** Public base URL of the gateway: links in emails (admin invitations) start here. */
    SESAME_PUBLIC_URL: z.url().default('http://localhost:8080'),
    /** Lifetime of an IT-admin invitation link (days). */
    SESAME_ADMIN_INVITATION_TTL_DAYS: z.coerce.number().min(1).max(365).default(30),
  })
  .superRefine(requireStoreUrls);
export type IdentityConfig = z.infer<typeof identityConfigSchema>;
