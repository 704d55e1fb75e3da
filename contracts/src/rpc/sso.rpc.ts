import { z } from '../zod';
import { samlConfigSchema, ssoConnectionSchema } from '../entities/sso.schema';
import { ssoConnectionBodySchema } from '../operations/sso.operations';
import { subjects } from '../subjects';
import { tenantScopeSchema } from './identity.rpc';

/**
 * SAML SSO subjects other services and apps call (the IT-admin onboarding page, through the
 * gateway, with the organization and environment of the admin's invitation). Send
 * `{ meta: { correlationId, actor? }, input }` with `input` following `request`; the answer is an
 * `RpcReply` whose body follows `response`.
 *
 * - `subjects.authMethods.sso.find` `{ organization_domain, environment }` →
 *   `{ sso_connection: SsoConnection | null }`.
 * - `subjects.authMethods.sso.configure` `{ organization_domain, environment, ...settings }`
 *   (the fields of the public POST/PUT body: `provider_type`, `metadata` XML, `users_access_policy`,
 *   `active`, `type` and the `oidc_*` fields, the client secret sealed before it is recorded, ...) → the `SsoConnection`, created when absent. Metadata problems answer 422 field
 *   errors on `metadata` (`is not valid XML...`, `has no signing certificate`, `has an expired signing certificate...`);
 *   an unknown organization answers 404 `resource_not_found`.
 * - `subjects.authMethods.sso.spSettings` `{ organization_domain, environment }` → `{ sp_id, saml_config, oidc_redirect_uri }`:
 *   our ACS URL, entity id and SP metadata URL (SAML), or our redirect URI (OIDC), to show the admin,
 *   even before a connection exists.
 * - `subjects.authMethods.sso.testSignIn` `{ organization_domain, environment, return_url }` →
 *   `{ request_id, authorization_url, expired_at }`: send the admin's browser to `authorization_url`
 *   (SAML: the connection needs IdP metadata; OIDC: issuer, client id and secret, 422 on `oidc_issuer`
 *   otherwise or when the issuer answers no discovery document; it may still be inactive). After the IdP, the browser comes
 *   back to `return_url?request_id=...&sso_test=success` (or `&sso_test=failed`). `return_url` must
 *   be under the public URL of Sesame (422 on `return_url` otherwise). No user is created, no code issued.
 * - `subjects.authMethods.sso.testResult` `{ request_id }` → `{ status: 'pending' | 'succeeded' | 'failed',
 *   name_id, email, attributes, profile, reason, message }` (404 for an unknown test).
 * - The SP metadata XML is public at `saml_config.cryptr_metadata_url` (`GET /sso/saml/{sp_id}/metadata`).
 */
export const ssoTenantRequestSchema = tenantScopeSchema;
export const configureSsoConnectionRequestSchema = tenantScopeSchema.extend(ssoConnectionBodySchema.shape);
export type ConfigureSsoConnectionRequest = z.infer<typeof configureSsoConnectionRequestSchema>;
export const maybeSsoConnectionSchema = z.object({ sso_connection: ssoConnectionSchema.nullable() });
export const spSettingsSchema = z.object({
  sp_id: z.string(),
  saml_config: samlConfigSchema,
  oidc_redirect_uri: z.string().meta({ description: 'OIDC: the redirect URI to register at the identity provider' }),
});

export const testSignInRequestSchema = tenantScopeSchema.extend({ return_url: z.url({ protocol: /^https?$/ }).max(2_000) });
export const testSignInSchema = z.object({ request_id: z.uuid(), authorization_url: z.string(), expired_at: z.string() });
/** With the caller's organization and environment (the onboarding page's invitation), another tenant's test is unknown. */
export const testResultRequestSchema = z.object({ request_id: z.uuid() }).extend(tenantScopeSchema.partial().shape);
export const testResultSchema = z.object({
  status: z.enum(['pending', 'succeeded', 'failed']),
  name_id: z.string().nullable(),
  email: z.string().nullable(),
  attributes: z.record(z.string(), z.array(z.string())),
  profile: z.record(z.string(), z.unknown()),
  reason: z.string().nullable(),
  message: z.string().nullable(),
});

export const ssoRpc = {
  [subjects.authMethods.sso.find]: { request: ssoTenantRequestSchema, response: maybeSsoConnectionSchema },
  [subjects.authMethods.sso.configure]: { request: configureSsoConnectionRequestSchema, response: ssoConnectionSchema },
  [subjects.authMethods.sso.spSettings]: { request: ssoTenantRequestSchema, response: spSettingsSchema },
  [subjects.authMethods.sso.testSignIn]: { request: testSignInRequestSchema, response: testSignInSchema },
  [subjects.authMethods.sso.testResult]: { request: testResultRequestSchema, response: testResultSchema },
} as const;
