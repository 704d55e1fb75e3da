import { z } from '../zod';
import { magicLinkConnectionSchema, totpConnectionSchema, totpMethods } from '../entities/auth-methods.schema';
import { ssoProviderTypeSchema, usersAccessPolicySchema } from '../entities/sso.schema';
import { codeExchangeFailureReasons, signInMethods } from '../events/sign-in.events';

/**
 * The `data` of the auth-methods service's webhook events: password, magic link, TOTP, SAML SSO
 * and relays. Never a password, a hash, a one-time code, a token, a key, a nonce or a SAML
 * response: a field not listed here never reaches a subscriber, whatever the internal event carries.
 */

const organizationDomain = z.string().meta({ description: 'Domain of the organization' });
/** Absent from the events recorded before it was carried. */
const optionalOrganizationDomain = organizationDomain.optional();
const connectionTenant = { organization_id: z.string(), organization_domain: organizationDomain };

const passwordConnectionSettings = {
  active: z.boolean(),
  plain_text_min_length: z.number().int(),
  plain_text_max_length: z.number().int(),
  pepper_rotation_period: z.number().int(),
};
/** The connection's id as the API answers it; absent from the events recorded before connections had one. */
const passwordConnectionId = z.string().optional();

export const passwordConnectionCreatedPayloadSchema = z.object({
  id: passwordConnectionId,
  ...passwordConnectionSettings,
  organization_domain: organizationDomain,
});
export const passwordConnectionUpdatedPayloadSchema = z.object({ id: passwordConnectionId, ...passwordConnectionSettings });

const passwordSet = { password_id: z.string(), user_id: z.string(), organization_domain: organizationDomain };
export const passwordCreatedPayloadSchema = z.object({
  ...passwordSet,
  previous_password_id: z.string().nullable().meta({ description: "Always null: the user's first password" }),
});
export const passwordUpdatedPayloadSchema = z.object({
  ...passwordSet,
  previous_password_id: z.string().meta({ description: 'The password this one replaces' }),
});
export const passwordChallengePayloadSchema = z.object({ email: z.string().meta({ description: 'The email signing in' }) });
/** The address a reset link was mailed to, when the email alone carried it (setting the password verifies it). */
const provenEmail = z.string().optional();
export const passwordRequestCreatedPayloadSchema = z.object({
  reason: z.enum(['reset', 'renew']),
  request_id: z.string(),
  user_id: z.string(),
  organization_domain: organizationDomain,
  redirect_uri: z.string().nullable(),
  expires_at: z.string(),
  proven_email: provenEmail,
});

export const magicLinkConnectionPayloadSchema = z.object({ ...connectionTenant, connection: magicLinkConnectionSchema });
/** The sign-in a magic link opens: who, where, for which client and scope. */
const magicLinkSignIn = {
  organization_domain: organizationDomain,
  user_id: z.string(),
  method: z.literal('magic_link'),
  client_id: z.string().nullable().meta({ description: 'The API key (client) the tokens are for' }),
  scope: z.string(),
  authenticated_at: z.number().int().meta({ description: 'Unix seconds of the sign-in' }),
};
export const magicLinkChallengeCreatedPayloadSchema = z.object({
  ...magicLinkSignIn,
  redirect_uri: z.string().nullable(),
  expires_at: z.string(),
  proven_email: provenEmail,
});
export const magicLinkChallengeSucceededPayloadSchema = z.object({
  ...magicLinkSignIn,
  family_id: z.string().meta({ description: 'The refresh-token family the exchange opened' }),
});

/**
 * A refused exchange of an issued code (`POST /oauth/token`): whose sign-in it was and why it was
 * refused, never the code, its verifier nor a client secret. An unknown code is not recorded.
 */
const codeExchangeFailure = {
  organization_domain: organizationDomain,
  user_id: z.string(),
  client_id: z.string().nullable().meta({ description: 'The API key (client) the code was issued for' }),
  reason: z.enum(codeExchangeFailureReasons).meta({
    description:
      'Why: `already_used`, `expired`, `other_client`, `redirect_uri_mismatch`, `code_verifier_missing`, `code_verifier_mismatch`, `code_verifier_unexpected`, `client_id_missing`, `client_authentication_missing`, `client_authentication_failed`',
  }),
};
export const magicLinkChallengeFailedPayloadSchema = z.object({ ...codeExchangeFailure, method: z.literal('magic_link') });
export const authorizationCodeExchangeFailedPayloadSchema = z.object({
  ...codeExchangeFailure,
  method: z.enum(signInMethods).meta({ description: 'How the user signed in before the code was issued' }),
});

export const totpConnectionUpdatedPayloadSchema = z.object({ ...connectionTenant, connection: totpConnectionSchema });
export const totpEnrollmentCreatedPayloadSchema = z.object({
  ...connectionTenant,
  user_id: z.string(),
  email: z.string(),
  method: z.enum(totpMethods),
  period: z.number().int().meta({ description: 'Seconds a code lives' }),
  enrollment_nb: z.number().int(),
});
export const totpEnrollmentValidatedPayloadSchema = z.object({
  organization_domain: optionalOrganizationDomain,
  user_id: z.string(),
  enrollment_nb: z.number().int(),
});
export const totpChallengeCreatedPayloadSchema = z.object({
  organization_domain: optionalOrganizationDomain,
  user_id: z.string(),
  request_id: z.string(),
  sent_at: z.string().nullable().meta({ description: 'When the SMS was sent (SMS method)' }),
});
export const totpChallengeSucceededPayloadSchema = z.object({
  organization_domain: optionalOrganizationDomain,
  user_id: z.string(),
  request_id: z.string(),
});
export const totpChallengeFailedPayloadSchema = z.object({
  organization_domain: optionalOrganizationDomain,
  user_id: z.string(),
  failed_attempts: z.number().int(),
  locked_until: z.string().nullable().meta({ description: 'Set when this failure locked the enrollment' }),
});

const ssoSettingsSchema = z
  .object({
    active: z.boolean(),
    provider_type: ssoProviderTypeSchema,
    users_access_policy: usersAccessPolicySchema,
    number_users_provisioning_limit: z.number().int().nullable(),
    metadata: z.string().nullable().meta({ description: 'The IdP metadata XML' }),
    update_profile_only_at_creation: z.boolean(),
    allow_idp_initiated: z.boolean(),
    onboarding: z.record(z.string(), z.unknown()).nullable(),
    type: z.enum(['saml', 'oidc']).optional().meta({ description: 'Absent from connections recorded before OIDC: `saml`' }),
    oidc_issuer: z.string().nullable().optional(),
    oidc_client_id: z.string().nullable().optional(),
    oidc_scopes: z.array(z.string()).nullable().optional(),
  })
  .meta({
    id: 'WebhookSsoConnectionSettings',
    description: 'An OIDC connection’s client secret is never published.',
  });
const idpSchema = z
  .object({
    entity_id: z.string(),
    sso_url: z.string(),
    slo_url: z.string().nullable(),
    certificates: z.array(
      z.object({ pem: z.string(), fingerprint_sha256: z.string(), not_before: z.string(), not_after: z.string() }),
    ),
  })
  .nullable()
  .meta({ id: 'WebhookSsoIdentityProvider', description: 'Read from the IdP metadata; null without metadata' });

export const ssoConnectionCreatedPayloadSchema = z.object({
  id: z.string(),
  sp_id: z.string(),
  organization_domain: organizationDomain,
  settings: ssoSettingsSchema,
  idp: idpSchema,
});
export const ssoConnectionUpdatedPayloadSchema = z.object({
  sp_id: z.string(),
  organization_domain: optionalOrganizationDomain,
  settings: ssoSettingsSchema,
  idp: idpSchema,
});
const ssoSignIn = {
  organization_domain: optionalOrganizationDomain,
  sso_connection_id: z.string().optional(),
  request_id: z.string(),
};
export const ssoLoginSucceededPayloadSchema = z.object({
  ...ssoSignIn,
  assertion_id: z.string(),
  subject: z
    .object({
      name_id: z.string(),
      name_id_format: z.string().nullable(),
      session_index: z.string().nullable(),
      email: z.string().nullable(),
      user_id: z.string().nullable(),
    })
    .meta({ id: 'WebhookSamlSubject' }),
});
export const ssoLoginFailedPayloadSchema = z.object({
  ...ssoSignIn,
  reason: z.string().meta({ description: 'A refusal code (`bad_signature`, `unsigned`, `challenge_expired`...)' }),
});

const relaySchema = z
  .object({
    id: z.string(),
    environment: z.enum(['sandbox', 'production']),
    organization_id: z.string().meta({ description: 'The partner organization' }),
    partner_domain: z.string(),
    source_organizations: z
      .array(z.string())
      .optional()
      .meta({ description: 'Domains of the organizations whose users it accepts (absent from older relays)' }),
    partner_redirect_uri: z.string(),
    jit: z.boolean(),
    session_duration_minutes: z.number().int(),
    inserted_at: z.string(),
  })
  .meta({ id: 'WebhookRelay' });
export const relayPayloadSchema = z.object({ relay: relaySchema });
export const relayRequestCreatedPayloadSchema = z.object({
  relay_id: z.string(),
  from_user_id: z.string(),
  from_organization_domain: z.string(),
  partner_domain: z.string(),
  partner_user_id: z.string(),
  partner_redirect_uri: z.string(),
  session_duration_minutes: z.number().int(),
  expires_at: z.string(),
});

export const authMethodsPayloadSchemas = {
  'password_connection.created': passwordConnectionCreatedPayloadSchema,
  'password_connection.updated': passwordConnectionUpdatedPayloadSchema,
  'password.created': passwordCreatedPayloadSchema,
  'password.updated': passwordUpdatedPayloadSchema,
  'password.challenge.succeeded': passwordChallengePayloadSchema,
  'password.challenge.failed': passwordChallengePayloadSchema,
  'password.request.created': passwordRequestCreatedPayloadSchema,
  'magic_link_connection.created': magicLinkConnectionPayloadSchema,
  'magic_link_connection.updated': magicLinkConnectionPayloadSchema,
  'magic_link.challenge.created': magicLinkChallengeCreatedPayloadSchema,
  'magic_link.challenge.succeeded': magicLinkChallengeSucceededPayloadSchema,
  'magic_link.challenge.failed': magicLinkChallengeFailedPayloadSchema,
  'authorization_code.exchange.failed': authorizationCodeExchangeFailedPayloadSchema,
  'totp_connection.updated': totpConnectionUpdatedPayloadSchema,
  'totp.enrollment.created': totpEnrollmentCreatedPayloadSchema,
  'totp.enrollment.validated': totpEnrollmentValidatedPayloadSchema,
  'totp.challenge.created': totpChallengeCreatedPayloadSchema,
  'totp.challenge.succeeded': totpChallengeSucceededPayloadSchema,
  'totp.challenge.failed': totpChallengeFailedPayloadSchema,
  'sso_connection.created': ssoConnectionCreatedPayloadSchema,
  'sso_connection.updated': ssoConnectionUpdatedPayloadSchema,
  'sso.login.succeeded': ssoLoginSucceededPayloadSchema,
  'sso.login.failed': ssoLoginFailedPayloadSchema,
  'relay.created': relayPayloadSchema,
  'relay.updated': relayPayloadSchema,
  'relay.deleted': relayPayloadSchema,
  'relay.request.created': relayRequestCreatedPayloadSchema,
} as const;
