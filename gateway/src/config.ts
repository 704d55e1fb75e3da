import { z } from '@sesame/contracts';
import { baseConfigSchema, defaultManagementPort } from '@sesame/platform';
import { rateLimitEnvShape } from './rate-limits/rate-limit-config';

export const gatewayConfigSchema = baseConfigSchema.extend({
  SESAME_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Port of the probes and /metrics (Prometheus scrapes it; integrators never see it); 0 picks a free one. */
  SESAME_MANAGEMENT_PORT: z.coerce.number().int().min(0).max(65535).default(defaultManagementPort),
  /** Public base URL of this gateway; the issuer of API-key tokens is `<url>/t/<tenant>`. */
  SESAME_PUBLIC_URL: z.url().default('http://localhost:8080'),
  SESAME_TENANT: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .default('sesame'),
  SESAME_API_AUDIENCE: z.string().optional(),
  /** Lifetime of API-key access tokens (as auth-methods issues them): how long a key's revocation is remembered. */
  SESAME_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(36_000),
  /** Documentation site, for the `doc_urls` of error answers. */
  SESAME_DOCS_URL: z.url().default('http://localhost:8000'),
  SESAME_BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).default(1_048_576),
  SESAME_JWKS_REFRESH_SECONDS: z.coerce.number().int().min(10).default(300),
  /**
   * Which `X-Forwarded-For` entries give the client address (per-address rate limits, the address of
   * the actor of the events a request causes): `false`
   * (the connection's address: the default, right when clients reach the gateway directly, as with
   * `npm start` and the compose file), the number of proxies in front of the gateway (the address
   * the nearest of them saw; the Helm chart sets its ingress hop count), or `true` (the leftmost
   * entry, which the client chooses).
   */
  SESAME_TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(true|false|[0-9]{1,2})$/, 'must be true, false or a number of proxies')
    .default('false')
    .transform((value) => (value === 'true' ? true : value === 'false' ? false : Number(value))),
  /** Timeout of the rate-limit counters' requests to NATS; past it the request is let through (fail open). */
  SESAME_RATE_LIMIT_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).default(500),
  /**
   * Age after which an `Idempotency-Key` still marked in progress is taken to belong to a gateway
   * that died mid-request, and a retry may claim it. The service that did the work stores its answer
   * under the key before replying, so the work runs again only when the service died too. Keep it
   * well above SESAME_RPC_TIMEOUT_MS: a live gateway has answered or freed the key by then.
   */
  SESAME_IDEMPOTENCY_TAKEOVER_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  ...rateLimitEnvShape,
});
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export const apiKeyIssuer = (config: GatewayConfig) => `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/t/${config.SESAME_TENANT}`;
export const apiAudience = (config: GatewayConfig) => config.SESAME_API_AUDIENCE ?? config.SESAME_PUBLIC_URL.replace(/\/$/, '');
