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

export const usersAccessPolicies = ['only_registered_users', 'provision_new_users', 'unregistered_users_allowed'] as const;
export const usersAccessPolicySchema = z.enum(usersAccessPolicies);

export const samlConfigSchema = z
  .object({
    acs_url: z.string(),
    entity_id: z.string(),
    cryptr_metadata_url: z.string().meta({ description: 'URL of our SP metadata document' }),
    slo_url: z.string().nullable(),
    slo_response_url: z.string().nullable(),
    sso_provider_metadata: z.string().nullable(),
  })
  .meta({ id: 'SamlConfig' });

export const ssoConnectionSchema = z
  .object({
    __type__: z.literal('SsoConnection'),
    __domain__: z.string(),
    __environment__: z.enum(['sandbox', 'production']),
    id: z.uuid(),
    sp_id: z.string(),
    active: z.boolean(),
    organization: z.string(),
    provider_type: ssoProviderTypeSchema,
    number_users_provisioning_limit: z.number().int().nullable(),
    users_access_policy: usersAccessPolicySchema,
    onboarding: z.record(z.string(), z.unknown()).nullable(),
    metadata: z.string().nullable().meta({ description: 'Identity provider SAML metadata (XML)' }),
    saml_config: samlConfigSchema,
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
