import { adminsExamples } from './admins.examples';
import { directorySyncsExamples } from './directory-syncs.examples';
import { domainVerificationsExamples } from './domain-verifications.examples';
import { apiErrorExample } from './operation-examples';
import type { OperationExamples } from './operation-examples';
import { ssoExamples } from './sso.examples';

const admin = adminsExamples.inviteAdmin.response;
const invitation = {
  admin,
  organization: {
    domain: 'wayne-enterprises',
    name: 'Wayne Enterprises',
    allowed_email_domains: ['wayne.com'],
    locale: 'en',
  },
  allowed_setups: ['sso', 'directory_sync'],
  session: { expires_at: '2025-03-04T10:12:45.118Z', idle_timeout_seconds: 900 },
};
const connection = ssoExamples.getSsoConnection.response;
const sessionRequired = apiErrorExample('onboarding_session_required');
const directorySync = { ...directorySyncsExamples.createDirectorySync.response, __domain__: 'wayne-enterprises' };
const setupNotAllowed = apiErrorExample('onboarding_setup_not_allowed');
const requestId = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';

/** Examples of the IT-admin onboarding page's calls (API reference), checked against their schemas. */
export const adminOnboardingExamples = {
  openAdminInvitation: {
    request: { token: 'inv_4mJ8qX2vT9kLp3RwZs6Yb1Nc' },
    response: invitation,
    error: { status: 422, body: { errors: { token: ['has already been used: the link works once, ask for a new one'] } } },
  },
  getAdminOnboardingSession: { response: invitation, error: sessionRequired },
  acceptAdminInvitation: {
    response: { ...admin, accepted_invitation_at: '2025-03-04T09:20:02.531Z', last_login_at: '2025-03-04T09:14:10.077Z' },
    error: sessionRequired,
  },
  declineAdminInvitation: {
    response: { ...admin, declined_to_be_in_charge_at: '2025-03-04T09:20:02.531Z', last_login_at: '2025-03-04T09:14:10.077Z' },
    error: apiErrorExample('cross_site_request'),
  },
  getAdminInvitationSpSettings: {
    response: {
      sp_id: connection.sp_id,
      saml_config: connection.saml_config,
      oidc_redirect_uri: `https://sesame.example.com/sso/oidc/${connection.sp_id}/callback`,
    },
    error: sessionRequired,
  },
  getAdminInvitationSsoConnection: { response: { sso_connection: connection }, error: sessionRequired },
  configureAdminInvitationSsoConnection: {
    request: { provider_type: 'okta', metadata: connection.metadata },
    response: connection,
    error: apiErrorExample('resource_not_found'),
  },
  startAdminInvitationSsoTest: {
    request: { return_url: 'https://sesame.example.com/onboarding/' },
    response: {
      request_id: requestId,
      authorization_url: `https://sesame.example.com/sso/saml/${connection.sp_id}/authorize?request_id=${requestId}`,
      expired_at: '2025-03-04T09:27:45.118Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  getAdminInvitationSsoTestResult: {
    request: { request_id: requestId },
    response: {
      status: 'succeeded',
      name_id: 'lucius.fox@wayne.com',
      email: 'lucius.fox@wayne.com',
      attributes: { firstName: ['Lucius'], lastName: ['Fox'] },
      profile: { given_name: 'Lucius', family_name: 'Fox' },
      reason: null,
      message: null,
    },
    error: apiErrorExample('resource_not_found'),
  },
  getAdminInvitationDirectorySync: {
    response: { directory_sync: { ...directorySync, auth_secret_token: { ...directorySync.auth_secret_token, value: null } } },
    error: setupNotAllowed,
  },
  setUpAdminInvitationDirectorySync: {
    request: { provider_type: 'azure_ad' },
    response: directorySync,
    error: setupNotAllowed,
  },
  rotateAdminInvitationDirectorySyncToken: {
    response: {
      ...directorySync,
      auth_secret_token: { ...directorySync.auth_secret_token, hint: 'Q7vK', value: 'scim_8fTq1LmZ0pXy4RwN6cVb2Hs5Q7vK' },
      updated_at: '2025-03-04T09:31:02.531Z',
    },
    error: apiErrorExample('resource_not_found'),
  },
  getAdminInvitationDirectorySyncStatus: {
    response: {
      directory_sync_id: directorySync.id,
      last_request_at: '2025-03-04T09:30:12.004Z',
      users_provisioned: 42,
      groups_provisioned: 3,
      last_error: {
        at: '2025-03-04T09:21:40.512Z',
        status: 401,
        detail: 'Authentication failed: the bearer token is not the one of this directory sync',
      },
    },
    error: setupNotAllowed,
  },
  listAdminInvitationDomains: {
    response: domainVerificationsExamples.listDomainVerifications.response,
    error: setupNotAllowed,
  },
  startAdminInvitationDomainVerification: {
    request: { email_domain: 'wayne.com' },
    response: domainVerificationsExamples.startDomainVerification.response,
    error: setupNotAllowed,
  },
  verifyAdminInvitationDomain: {
    request: { email_domain: 'wayne.com' },
    response: domainVerificationsExamples.verifyDomainVerification.response,
    error: domainVerificationsExamples.verifyDomainVerification.error,
  },
} satisfies Record<string, OperationExamples>;
