import { z } from '@sesame/contracts';
import { baseConfigSchema, requireStoreUrls } from '@sesame/platform';

const ms = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

export const webhooksConfigSchema = baseConfigSchema
  .extend({
    /** AES-256-GCM key ring `kid:base64[,kid:base64]`: encrypts webhook signature keys at rest. */
    SESAME_ENCRYPTION_KEYS: z
      .string({ error: 'is required: generate one with `npm run sesame -- keys generate`' })
      .min(1, 'is required: generate one with `npm run sesame -- keys generate`'),
    /** How long a previous signature key keeps signing after a rotation. */
    SESAME_WEBHOOK_KEY_OVERLAP_MS: ms(86_400_000, 0),
    /** First retry delay; each next one doubles (with jitter), up to the maximum. */
    SESAME_WEBHOOK_BACKOFF_BASE_MS: ms(30_000),
    SESAME_WEBHOOK_BACKOFF_MAX_MS: ms(6 * 3_600_000),
    SESAME_WEBHOOK_CONNECT_TIMEOUT_MS: ms(5_000),
    /** Time allowed for the receiver's answer (headers and body) once connected. */
    SESAME_WEBHOOK_RESPONSE_TIMEOUT_MS: ms(10_000),
    /** A replica executing a job holds it this long; after a crash another replica takes it over. */
    SESAME_WEBHOOK_LEASE_MS: ms(60_000, 1_000),
    /** Deliveries in flight per replica. */
    SESAME_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(32),
    /** Deliveries in flight per replica to one webhook, so a slow endpoint cannot hold every slot. */
    SESAME_WEBHOOK_CONCURRENCY_PER_WEBHOOK: z.coerce.number().int().min(1).max(1_000).default(16),
    /** How often a replica looks for due jobs (new ones are picked at once). */
    SESAME_WEBHOOK_POLL_MS: ms(500, 10),
    /** Completed, cancelled and discarded jobs are deleted after this long. */
    SESAME_WEBHOOK_RETENTION_MS: ms(86_400_000, 1_000),
    /** Events of the events feed (`GET /api/v2/events`) are deleted this long after they occurred (90 days). */
    SESAME_EVENTS_RETENTION_MS: ms(90 * 86_400_000, 1_000),
  })
  .superRefine(requireStoreUrls);
export type WebhooksConfig = z.infer<typeof webhooksConfigSchema>;
