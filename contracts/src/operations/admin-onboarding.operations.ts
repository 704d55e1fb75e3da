import { z } from '../zod';
import { errorCatalogue } from '../common/errors';
import type { ErrorCode } from '../common/errors';
import { adminInvitationSchema, adminSchema } from '../entities/admin.schema';
import { ssoConnectionSchema, ssoProviderTypeSchema } from '../entities/sso.schema';
import { directorySyncSchema } from '../entities/directory-sync.schema';
import { domainVerificationSchema } from '../entities/domain-verification.schema';
import { domainNameSchema } from '../common/primitives.schema';
import {
  directorySyncStatusSchema,
  maybeDirectorySyncSchema,
  onboardingDirectoryProviderSchema,
} from '../rpc/directory-sync.rpc';
import { maybeSsoConnectionSchema, spSettingsSchema, testResultSchema, testSignInSchema } from '../rpc/sso.rpc';
import { subjects } from '../subjects';
import { defineOperation } from './operation';
import { invitationLinkRateLimits, onboardingSessionRateLimits } from './rate-limits';
import { maxIdpMetadataLength, oidcConnectionFieldsSchema } from './sso.operations';
import { adminOnboardingExamples } from './admin-onboarding.examples';
import { domainVerificationListSchema } from './domain-verifications.operations';

/**
 * The IT-admin onboarding page's calls. The emailed invitation link is used once, by
 * `openAdminInvitation`, which opens an onboarding session in that browser: an HttpOnly,
 * SameSite=Strict cookie sent only to these endpoints. Every other call is authorized by that
 * session (`auth: 'admin_invitation'`), never by the link.
 */
export const onboardingSessionCookie = { name: 'sesame_onboarding', path: '/api/v2/admin-invitations' } as const;

export const adminInvitationLinkBodySchema = z
  .object({ token: z.string().trim().min(1).max(200).meta({ description: 'The token of the invitation link' }) })
  .meta({ id: 'AdminInvitationLink' });

/** Messages on `token` when an invitation link cannot be opened (422 field errors). */
export const adminInvitationMessages = {
  invalid: 'is invalid',
  used: 'has already been used: the link works once, ask for a new one',
  expired: 'has expired: ask for a new link',
  revoked: 'has been revoked: ask for a new link',
  declined: 'has been declined: ask to be invited again',
} as const;

/** Messages of `401 onboarding_session_required` when the page's call carries no usable session. */
export const onboardingSessionMessages = {
  missing: errorCatalogue.onboarding_session_required.message,
  ended: 'Your onboarding session has ended: ask for a new invitation link',
  expired: 'Your onboarding session has expired: ask for a new invitation link',
} as const;

const sessionErrors: ErrorCode[] = ['onboarding_session_required', 'cross_site_request'];
/** Calls that set something up also answer 403 when the invitation does not allow it. */
const setupErrors: ErrorCode[] = [...sessionErrors, 'onboarding_setup_not_allowed'];

export const openAdminInvitation = defineOperation({
  operationId: 'openAdminInvitation',
  method: 'post',
  path: '/api/v2/admin-invitations/open',
  tag: 'Admins',
  summary: 'Open an IT admin invitation link',
  description:
    'Called once by the onboarding page with the token of the invitation link. The link is used up, and an onboarding session starts in this browser: the answer sets the `sesame_onboarding` cookie (HttpOnly, SameSite=Strict, path `/api/v2/admin-invitations`, Secure over https) that the page’s other calls carry. Answers who is invited, for which organization, and how long the session lasts. A link opened before, expired, revoked, declined or replaced by a newer invitation answers 422 on `token`. Records `last_login_at`.',
  auth: 'none',
  sameOrigin: true,
  subject: subjects.identity.admins.openInvitation,
  request: { body: adminInvitationLinkBodySchema },
  response: { status: 200, description: 'The invitation, and the session it opened', schema: adminInvitationSchema },
  errors: ['cross_site_request'],
  rateLimits: invitationLinkRateLimits,
  examples: adminOnboardingExamples.openAdminInvitation,
});

export const getAdminOnboardingSession = defineOperation({
  operationId: 'getAdminOnboardingSession',
  method: 'post',
  path: '/api/v2/admin-invitations/session',
  tag: 'Admins',
  summary: 'The onboarding session of this browser',
  description:
    'Called by the onboarding page when it loads without a link (a reload, or the way back from a test sign-in), with the session cookie: who is invited, for which organization, and how long the session lasts.',
  auth: 'admin_invitation',
  sameOrigin: true,
  subject: subjects.identity.admins.onboardingSession,
  request: {},
  response: { status: 200, description: 'The invitation, and its session', schema: adminInvitationSchema },
  errors: sessionErrors,
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.getAdminOnboardingSession,
});

export const acceptAdminInvitation = defineOperation({
  operationId: 'acceptAdminInvitation',
  method: 'post',
  path: '/api/v2/admin-invitations/accept',
  tag: 'Admins',
  summary: 'Finish the set-up: accept an IT admin invitation',
  description:
    'Called by the onboarding page with the session cookie when the admin finishes the set-up: they accept being in charge of the organization’s single sign-on. The onboarding session ends (the answer clears its cookie).',
  auth: 'admin_invitation',
  sameOrigin: true,
  subject: subjects.identity.admins.acceptInvitation,
  request: {},
  response: { status: 200, description: 'The admin, now in charge', schema: adminSchema },
  errors: sessionErrors,
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.acceptAdminInvitation,
});

export const declineAdminInvitation = defineOperation({
  operationId: 'declineAdminInvitation',
  method: 'post',
  path: '/api/v2/admin-invitations/decline',
  tag: 'Admins',
  summary: 'Decline an IT admin invitation',
  description:
    'Called by the onboarding page with the session cookie: someone else is in charge. The onboarding session ends (the answer clears its cookie).',
  auth: 'admin_invitation',
  sameOrigin: true,
  subject: subjects.identity.admins.declineInvitation,
  request: {},
  response: { status: 200, description: 'The admin, who declined', schema: adminSchema },
  errors: sessionErrors,
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.declineAdminInvitation,
});

/**
 * What the IT admin may set on the onboarding page: the provider and, for SAML (the default), its
 * metadata; for OIDC (`type: oidc`), the issuer, client id, client secret and scopes, with the API's
 * rules. The rest of the connection (access policy, provisioning limit, active) stays the vendor's,
 * through the API.
 */
export const adminInvitationSsoConnectionBodySchema = z
  .object({
    provider_type: ssoProviderTypeSchema,
    metadata: z.string().trim().min(1).max(maxIdpMetadataLength).optional().meta({
      description: 'SAML: the identity provider’s metadata XML, uploaded or pasted by the admin (required)',
    }),
  })
  .extend(oidcConnectionFieldsSchema.shape)
  .refine(...requiredFor('metadata', (body) => body.type !== 'oidc'))
  .refine(...requiredFor('oidc_issuer', (body) => body.type === 'oidc'))
  .refine(...requiredFor('oidc_client_id', (body) => body.type === 'oidc'))
  .meta({ id: 'AdminInvitationSsoConnectionRequest' });

/**
 * SAML needs the metadata; OIDC the issuer and client id (the client secret may be kept from an
 * earlier save: it is never shown again). Checked also when another field is wrong, so that every
 * missing one is named at once.
 */
function requiredFor<Field extends 'metadata' | 'oidc_issuer' | 'oidc_client_id'>(
  field: Field,
  applies: (body: { type?: string | undefined }) => boolean,
) {
  return [
    (body: { type?: string | undefined } & { [key in Field]?: string | null | undefined }) =>
      !applies(body) || (body[field] !== undefined && body[field] !== null),
    {
      path: [field] as PropertyKey[],
      error: "can't be blank",
      when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
    },
  ] as const;
}

export const getAdminInvitationSpSettings = defineOperation({
  operationId: 'getAdminInvitationSpSettings',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/sp-settings',
  tag: 'Admins',
  summary: 'Our SAML service-provider values and OIDC redirect URI, for an IT admin',
  description:
    'Called by the onboarding page with the session cookie: the ACS URL, entity id and SP metadata URL (SAML) or the redirect URI (OIDC) the admin enters in their identity provider, for the organization and environment of the invitation (also before its SSO connection exists).',
  auth: 'admin_invitation',
  onboardingSetup: 'sso',
  sameOrigin: true,
  subject: subjects.authMethods.sso.spSettings,
  request: {},
  response: { status: 200, description: 'Our values', schema: spSettingsSchema },
  errors: setupErrors,
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.getAdminInvitationSpSettings,
});

export const getAdminInvitationSsoConnection = defineOperation({
  operationId: 'getAdminInvitationSsoConnection',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/connection',
  tag: 'Admins',
  summary: 'The SSO connection an IT admin sets up',
  description:
    'Called by the onboarding page with the session cookie: the SSO connection of the organization and environment of the invitation, or null when there is none yet.',
  auth: 'admin_invitation',
  onboardingSetup: 'sso',
  sameOrigin: true,
  subject: subjects.authMethods.sso.find,
  request: {},
  response: { status: 200, description: 'The connection, or null', schema: maybeSsoConnectionSchema },
  errors: setupErrors,
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.getAdminInvitationSsoConnection,
});

export const configureAdminInvitationSsoConnection = defineOperation({
  operationId: 'configureAdminInvitationSsoConnection',
  method: 'put',
  path: '/api/v2/admin-invitations/sso/connection',
  tag: 'Admins',
  summary: 'An IT admin gives their identity provider: SAML metadata or OIDC client',
  description:
    'Called by the onboarding page with the session cookie: creates the SSO connection of the organization and environment of the invitation, or updates it. SAML (the default): the metadata must be valid XML with at least one signing certificate, none expired. OIDC (`type: oidc`): the issuer and client id are required, the client secret may be kept from an earlier save (it is never answered: `oidc_config.client_secret_set`); register `oidc_config.redirect_uri` at the identity provider.',
  auth: 'admin_invitation',
  onboardingSetup: 'sso',
  sameOrigin: true,
  subject: subjects.authMethods.sso.configure,
  request: { body: adminInvitationSsoConnectionBodySchema },
  response: { status: 200, description: 'The connection', schema: ssoConnectionSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.configureAdminInvitationSsoConnection,
});

export const adminInvitationSsoTestBodySchema = z
  .object({
    return_url: z
      .url({ protocol: /^https?$/ })
      .max(2_000)
      .meta({ description: 'Where the browser comes back after the identity provider: the onboarding page' }),
  })
  .meta({ id: 'AdminInvitationSsoTestRequest' });
export const adminInvitationSsoTestResultBodySchema = z
  .object({ request_id: z.uuid() })
  .meta({ id: 'AdminInvitationSsoTestResultRequest' });

export const startAdminInvitationSsoTest = defineOperation({
  operationId: 'startAdminInvitationSsoTest',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/test',
  tag: 'Admins',
  summary: 'An IT admin starts a test sign-in',
  description:
    'Called by the onboarding page with the session cookie: an SP-initiated sign-in with the connection of the invitation’s organization and environment (SAML: it needs the identity provider’s metadata; OIDC: the issuer, client id and client secret, the issuer answering its discovery document). The browser follows `authorization_url`; after the identity provider it comes back to `return_url` (under Sesame’s public URL) with `request_id` and `sso_test=success` or `failed`. No user is created, no code is issued.',
  auth: 'admin_invitation',
  onboardingSetup: 'sso',
  sameOrigin: true,
  subject: subjects.authMethods.sso.testSignIn,
  request: { body: adminInvitationSsoTestBodySchema },
  response: { status: 200, description: 'Where to send the browser', schema: testSignInSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.startAdminInvitationSsoTest,
});

export const getAdminInvitationSsoTestResult = defineOperation({
  operationId: 'getAdminInvitationSsoTestResult',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/test-result',
  tag: 'Admins',
  summary: 'What a test sign-in brought back',
  description:
    'Called by the onboarding page with the session cookie and the `request_id` of a test sign-in: the NameID, email and attributes the identity provider sent, the profile Sesame maps from them, or why the sign-in was refused.',
  auth: 'admin_invitation',
  onboardingSetup: 'sso',
  sameOrigin: true,
  subject: subjects.authMethods.sso.testResult,
  request: { body: adminInvitationSsoTestResultBodySchema },
  response: { status: 200, description: 'The outcome', schema: testResultSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.getAdminInvitationSsoTestResult,
});

const directorySyncStep =
  'Called by the onboarding page with the session cookie, for the organization and environment of the invitation; the invitation must allow `directory_sync` (403 `onboarding_setup_not_allowed` otherwise).';

export const adminInvitationDirectorySyncBodySchema = z
  .object({ provider_type: onboardingDirectoryProviderSchema })
  .meta({ id: 'AdminInvitationDirectorySyncRequest' });

export const getAdminInvitationDirectorySync = defineOperation({
  operationId: 'getAdminInvitationDirectorySync',
  method: 'post',
  path: '/api/v2/admin-invitations/directory-sync/connection',
  tag: 'Admins',
  summary: 'The directory sync an IT admin sets up',
  description: `${directorySyncStep} The directory sync, or null when there is none yet. Its token value is null: it is shown only when issued.`,
  auth: 'admin_invitation',
  onboardingSetup: 'directory_sync',
  sameOrigin: true,
  subject: subjects.directorySync.onboarding.find,
  request: {},
  response: { status: 200, description: 'The directory sync, or null', schema: maybeDirectorySyncSchema },
  errors: setupErrors,
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.getAdminInvitationDirectorySync,
});

export const setUpAdminInvitationDirectorySync = defineOperation({
  operationId: 'setUpAdminInvitationDirectorySync',
  method: 'put',
  path: '/api/v2/admin-invitations/directory-sync/connection',
  tag: 'Admins',
  summary: 'An IT admin connects their directory',
  description: `${directorySyncStep} Creates the directory sync with the admin’s identity provider: the answer holds the SCIM base URL and the bearer token, whose value is shown in this answer only (stored hashed). When it exists, changes its provider only (token value null: rotate the token to get a new one).`,
  auth: 'admin_invitation',
  onboardingSetup: 'directory_sync',
  sameOrigin: true,
  subject: subjects.directorySync.onboarding.setUp,
  request: { body: adminInvitationDirectorySyncBodySchema },
  response: { status: 200, description: 'The directory sync', schema: directorySyncSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.setUpAdminInvitationDirectorySync,
});

export const rotateAdminInvitationDirectorySyncToken = defineOperation({
  operationId: 'rotateAdminInvitationDirectorySyncToken',
  method: 'post',
  path: '/api/v2/admin-invitations/directory-sync/rotate-token',
  tag: 'Admins',
  summary: 'An IT admin rotates the SCIM bearer token',
  description: `${directorySyncStep} Issues a new bearer token, shown in this answer only; the previous one stops working at once.`,
  auth: 'admin_invitation',
  onboardingSetup: 'directory_sync',
  sameOrigin: true,
  subject: subjects.directorySync.onboarding.rotateToken,
  request: {},
  response: { status: 200, description: 'The directory sync, with its new token value', schema: directorySyncSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.rotateAdminInvitationDirectorySyncToken,
});

export const getAdminInvitationDirectorySyncStatus = defineOperation({
  operationId: 'getAdminInvitationDirectorySyncStatus',
  method: 'post',
  path: '/api/v2/admin-invitations/directory-sync/status',
  tag: 'Admins',
  summary: 'What the identity provider’s SCIM client did',
  description: `${directorySyncStep} When the SCIM client last called (recorded at most once a minute), how many users and groups it provisions, and the last request Sesame refused.`,
  auth: 'admin_invitation',
  onboardingSetup: 'directory_sync',
  sameOrigin: true,
  subject: subjects.directorySync.onboarding.status,
  request: {},
  response: { status: 200, description: 'The status', schema: directorySyncStatusSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.getAdminInvitationDirectorySyncStatus,
});

const domainsStep =
  'Called by the onboarding page with the session cookie, for the organization and environment of the invitation; the invitation must allow `domains` (403 `onboarding_setup_not_allowed` otherwise).';

export const adminInvitationEmailDomainBodySchema = z
  .object({ email_domain: domainNameSchema.meta({ description: 'One of the organization’s `allowed_email_domains`' }) })
  .meta({ id: 'AdminInvitationEmailDomainRequest' });

export const listAdminInvitationDomains = defineOperation({
  operationId: 'listAdminInvitationDomains',
  method: 'post',
  path: '/api/v2/admin-invitations/domains/list',
  tag: 'Admins',
  summary: 'The email domains an IT admin verifies',
  description: `${domainsStep} Every email domain of the organization with its verification status and the TXT record to publish.`,
  auth: 'admin_invitation',
  onboardingSetup: 'domains',
  sameOrigin: true,
  subject: subjects.identity.organizations.domains.onboardingList,
  request: {},
  response: { status: 200, description: 'The email domains', schema: domainVerificationListSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.listAdminInvitationDomains,
});

export const startAdminInvitationDomainVerification = defineOperation({
  operationId: 'startAdminInvitationDomainVerification',
  method: 'post',
  path: '/api/v2/admin-invitations/domains/start',
  tag: 'Admins',
  summary: 'An IT admin starts the verification of an email domain',
  description: `${domainsStep} Answers the TXT record to publish (\`sesame-verification=<token>\` at \`_sesame-verification.<email_domain>\`); starting again answers the same record.`,
  auth: 'admin_invitation',
  onboardingSetup: 'domains',
  sameOrigin: true,
  subject: subjects.identity.organizations.domains.onboardingStart,
  request: { body: adminInvitationEmailDomainBodySchema },
  response: { status: 200, description: 'The verification, with its TXT record', schema: domainVerificationSchema },
  errors: ['resource_not_found', ...setupErrors],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.startAdminInvitationDomainVerification,
});

export const verifyAdminInvitationDomain = defineOperation({
  operationId: 'verifyAdminInvitationDomain',
  method: 'post',
  path: '/api/v2/admin-invitations/domains/verify',
  tag: 'Admins',
  summary: 'An IT admin checks the TXT record of an email domain now',
  description: `${domainsStep} The "verify now" button: reads the TXT records at \`_sesame-verification.<email_domain>\`; 422 with the reason when the verification's value is not there, 409 when another organization of the environment has verified the domain.`,
  auth: 'admin_invitation',
  onboardingSetup: 'domains',
  sameOrigin: true,
  subject: subjects.identity.organizations.domains.onboardingVerify,
  request: { body: adminInvitationEmailDomainBodySchema },
  response: { status: 200, description: 'The verified domain', schema: domainVerificationSchema },
  errors: [
    'resource_not_found',
    'domain_verification_not_started',
    'domain_verification_record_not_found',
    'domain_verification_record_mismatch',
    'domain_verification_lookup_failed',
    'domain_verified_by_another_organization',
    ...setupErrors,
  ],
  rateLimits: onboardingSessionRateLimits,
  examples: adminOnboardingExamples.verifyAdminInvitationDomain,
});

export const adminOnboardingOperations = [
  openAdminInvitation,
  getAdminOnboardingSession,
  acceptAdminInvitation,
  declineAdminInvitation,
  getAdminInvitationSpSettings,
  getAdminInvitationSsoConnection,
  configureAdminInvitationSsoConnection,
  startAdminInvitationSsoTest,
  getAdminInvitationSsoTestResult,
  getAdminInvitationDirectorySync,
  setUpAdminInvitationDirectorySync,
  rotateAdminInvitationDirectorySyncToken,
  getAdminInvitationDirectorySyncStatus,
  listAdminInvitationDomains,
  startAdminInvitationDomainVerification,
  verifyAdminInvitationDomain,
];
