import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { z } from '@sesame/contracts';
import { baseConfigSchema, refuseOutboxesInProduction, requireStoreUrls } from '@sesame/platform';

export const authMethodsConfigSchema = baseConfigSchema
  .extend({
    /** Public base URL of the gateway: token issuer (`<url>/t/<tenant>`) and links. */
    SESAME_PUBLIC_URL: z.url().default('http://localhost:8080'),
    /** Tenant of API-key tokens (`tnt` claim and issuer path). */
    SESAME_TENANT: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .default('sesame'),
    /** `aud` of API-key access tokens; defaults to the public URL. */
    SESAME_API_AUDIENCE: z.string().optional(),
    SESAME_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(36_000),
    /** Lifetime of the one-time authorization code a sign-in answers. */
    SESAME_AUTHORIZATION_CODE_TTL_SECONDS: z.coerce.number().int().min(10).max(600).default(120),
    /** Worker threads validating SAML Responses off the event loop (default: one less than the CPUs, at least one). */
    SESAME_SAML_VALIDATION_THREADS: z.coerce
      .number()
      .int()
      .min(1)
      .max(64)
      .default(Math.max(1, availableParallelism() - 1)),
    /** Lifetime of a refresh token (each rotation starts a new one). */
    SESAME_REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(2_592_000),
    /** Optional k-anonymity breached-password lookup (a Pwned Passwords compatible `range` API), e.g. `https://api.pwnedpasswords.com/range/`. */
    SESAME_PASSWORD_BREACH_RANGE_URL: z.url().optional(),
    /** Directory of the magic-link email templates a connection names with `sign_in_template_id` (`<id>.txt`, optional `<id>.html`). */
    SESAME_MAIL_TEMPLATES_DIR: z
      .string()
      .min(1)
      .refine((path) => existsSync(path) && statSync(path).isDirectory(), 'must be an existing directory')
      .optional(),
    SESAME_SIGNING_KEY_ROTATION_DAYS: z.coerce.number().min(1).max(365).default(30),
    /** AES-256-GCM key ring `kid:base64[,kid:base64]`: encrypts signing keys at rest. */
    SESAME_ENCRYPTION_KEYS: z
      .string({ error: 'is required: generate one with `npm run sesame -- keys generate`' })
      .min(1, 'is required: generate one with `npm run sesame -- keys generate`'),
  })
  .superRefine(requireStoreUrls)
  .superRefine(refuseOutboxesInProduction('mail', 'sms'));
export type AuthMethodsConfig = z.infer<typeof authMethodsConfigSchema>;

export const issuerOf = (config: AuthMethodsConfig, tenant = config.SESAME_TENANT) =>
  `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/t/${tenant}`;
export const audienceOf = (config: AuthMethodsConfig) =>
  config.SESAME_API_AUDIENCE ?? config.SESAME_PUBLIC_URL.replace(/\/$/, '');
