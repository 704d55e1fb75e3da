import { z } from '@sesame/contracts';
import { baseConfigSchema } from '@sesame/platform';
import { rateLimitEnvShape } from './rate-limits/rate-limit-config';

export const gatewayConfigSchema = baseConfigSchema.extend({
  SESAME_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Public base URL of this gateway; the issuer of API-key tokens is `<url>/t/<tenant>`. */
  SESAME_PUBLIC_URL: z.url().default('http://localhost:8080'),
  SESAME_TENANT: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default('sesame'),
  SESAME_API_AUDIENCE: z.string().optional(),
  /** Documentation site, for the `doc_urls` of error answers. */
  SESAME_DOCS_URL: z.url().default('http://localhost:8000'),
  SESAME_BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).default(1_048_576),
  SESAME_JWKS_REFRESH_SECONDS: z.coerce.number().int().min(10).default(300),
  /**
   * Which `X-Forwarded-For` entries give the client address (per-address rate limits): `true`
   * (the leftmost, the client chooses it), `false` (the connection's address), or the number of
   * proxies in front of the gateway (the address the nearest of them saw).
   */
  SESAME_TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(true|false|[0-9]{1,2})$/, 'must be true, false or a number of proxies')
    .default('1')
    .transform((value) => (value === 'true' ? true : value === 'false' ? false : Number(value))),
  /** Timeout of the rate-limit counters' requests to NATS; past it the request is let through (fail open). */
  SESAME_RATE_LIMIT_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(500),
  ...rateLimitEnvShape,
});
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const apiKeyIssuer = (config: GatewayConfig) => `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/t/${config.SESAME_TENANT}`;
export const apiAudience = (config: GatewayConfig) => config.SESAME_API_AUDIENCE ?? config.SESAME_PUBLIC_URL.replace(/\/$/, '');
