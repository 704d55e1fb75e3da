import { z } from '../zod';
import { timestampSchema } from '../common/primitives.schema';

export const ssoProviderTypes = [
  'azure_ad',
  'adfs',
  'google',
  'okta',
  'ping_federate',
  'ping_one',
  'auth0',
  'onelogin',
  'custom_saml',
] as const;
export const ssoProviderTypeSchema = z.enum(ssoProviderTypes);
export type SsoProviderType = z.infer<typeof ssoProviderTypeSchema>;

/** The protocol of a connection: SAML 2.0, or OpenID Connect with Sesame as the relying party. */
export const ssoConnectionTypes = ['saml', 'oidc'] as const;
export const ssoConnectionTypeSchema = z.enum(ssoConnectionTypes);
export type SsoConnectionType = z.infer<typeof ssoConnectionTypeSchema>;

export const usersAccessPolicies = ['only_registered_users', 'provision_new_users', 'unregistered_users_allowed'] as const;
export const usersAccessPolicySchema = z.enum(usersAccessPolicies);
export type UsersAccessPolicy = z.infer<typeof usersAccessPolicySchema>;

/** Our service-provider values for one connection: what the IT admin gives their identity provider. */
export const samlConfigSchema = z
  .object({
    acs_url: z.string().meta({ description: 'Assertion Consumer Service (HTTP-POST binding)' }),
    entity_id: z.string().meta({ description: 'Our SP entity id (also the SP metadata URL)' }),
    cryptr_metadata_url: z.string().meta({ description: 'URL of our SP metadata document' }),
    slo_url: z.string().nullable().meta({ description: 'Our single logout endpoint (logout requests from the IdP)' }),
    slo_response_url: z.string().nullable().meta({ description: 'Our single logout response endpoint' }),
    sso_provider_metadata: z
      .string()
      .nullable()
      .meta({ description: 'Entity id of the identity provider, from its metadata (null until metadata is given)' }),
  })
  .meta({ id: 'SamlConfig' });
export type SamlConfig = z.infer<typeof samlConfigSchema>;

/** What was read from the identity provider's metadata. */
export const identityProviderSchema = z
  .object({
    entity_id: z.string(),
    sso_url: z.string().meta({ description: 'SingleSignOnService, HTTP-Redirect binding' }),
    slo_url: z.string().nullable().meta({ description: 'SingleLogoutService of the IdP, when published' }),
    certificates: z
      .array(z.object({ fingerprint_sha256: z.string(), not_before: timestampSchema, not_after: timestampSchema }))
      .meta({ description: 'Signing certificates; any of them may sign (rotation without downtime)' }),
  })
  .meta({ id: 'SsoIdentityProvider' });
export type IdentityProvider = z.infer<typeof identityProviderSchema>;

/** An OIDC connection's relying-party settings (the client secret is kept encrypted and never answered). */
export const oidcConfigSchema = z
  .object({
    issuer: z
      .string()
      .nullable()
      .meta({ description: 'The identity provider’s issuer (its discovery document is read at sign-in)' }),
    client_id: z.string().nullable(),
    client_secret_set: z.boolean().meta({ description: 'Whether a client secret is recorded (it is never answered)' }),
    scopes: z.array(z.string()).meta({ description: 'Scopes asked for, `openid` always among them' }),
    redirect_uri: z.string().meta({ description: 'Our callback: the redirect URI to register at the identity provider' }),
  })
  .meta({ id: 'OidcConfig' });
export type OidcConfig = z.infer<typeof oidcConfigSchema>;

export const ssoConnectionSchema = z
  .object({
    __type__: z.literal('SsoConnection'),
    __domain__: z.string(),
    __environment__: z.enum(['sandbox', 'production']),
    id: z.uuid(),
    sp_id: z.string(),
    type: ssoConnectionTypeSchema,
    active: z.boolean(),
    organization: z.string(),
    provider_type: ssoProviderTypeSchema,
    number_users_provisioning_limit: z.number().int().nullable(),
    users_access_policy: usersAccessPolicySchema,
    onboarding: z.record(z.string(), z.unknown()).nullable(),
    metadata: z.string().nullable().meta({ description: 'Identity provider SAML metadata (XML)' }),
    identity_provider: identityProviderSchema.nullable(),
    saml_config: samlConfigSchema,
    oidc_config: oidcConfigSchema.nullable().meta({ description: 'OIDC connections only' }),
    update_profile_only_at_creation: z
      .boolean()
      .meta({ description: 'Profile attributes are written at the first sign-in only (and stay editable)' }),
    allow_idp_initiated: z.boolean().meta({ description: 'Accept sign-ins started at the identity provider' }),
    inserted_at: timestampSchema,
    updated_at: timestampSchema,
  })
  .meta({ id: 'SsoConnection' });
export type SsoConnection = z.infer<typeof ssoConnectionSchema>;

export const ssoChallengeSchema = z
  .object({
    request_id: z.uuid(),
    authorization_url: z.string(),
    redirect_uri: z.string(),
    expired_at: timestampSchema,
    sso_connection_id: z.uuid(),
  })
  .meta({ id: 'SsoChallenge' });
export type SsoChallenge = z.infer<typeof ssoChallengeSchema>;
