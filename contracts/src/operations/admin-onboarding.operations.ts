import { z } from '../zod';
import { ssoConnectionSchema, ssoProviderTypeSchema } from '../entities/sso.schema';
import { maybeSsoConnectionSchema, spSettingsSchema, testResultSchema, testSignInSchema } from '../rpc/sso.rpc';
import { subjects } from '../subjects';
import { adminInvitationBodySchema } from './admins.operations';
import { defineOperation } from './operation';
import { invitationRateLimits } from './rate-limits';
import { maxIdpMetadataLength } from './sso.operations';

/**
 * What the IT admin may set on the onboarding page: the provider and its metadata. The rest of
 * the connection (access policy, provisioning limit, active) stays the vendor's, through the API.
 */
export const adminInvitationSsoConnectionBodySchema = adminInvitationBodySchema
  .extend({
    provider_type: ssoProviderTypeSchema,
    metadata: z.string().trim().min(1).max(maxIdpMetadataLength).meta({
      description: 'The identity provider’s SAML metadata XML, uploaded or pasted by the admin',
    }),
  })
  .meta({ id: 'AdminInvitationSsoConnectionRequest' });

export const getAdminInvitationSpSettings = defineOperation({
  operationId: 'getAdminInvitationSpSettings',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/sp-settings',
  tag: 'Admins',
  summary: 'Our SAML service-provider values, for an IT admin',
  description:
    'Called by the onboarding page with the token of the invitation link: the ACS URL, entity id and SP metadata URL the admin enters in their identity provider, for the organization and environment of the invitation (also before its SSO connection exists).',
  auth: 'admin_invitation',
  subject: subjects.authMethods.sso.spSettings,
  request: { body: adminInvitationBodySchema },
  response: { status: 200, description: 'Our values', schema: spSettingsSchema },
  errors: [],
  rateLimits: invitationRateLimits,
});

export const getAdminInvitationSsoConnection = defineOperation({
  operationId: 'getAdminInvitationSsoConnection',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/connection',
  tag: 'Admins',
  summary: 'The SSO connection an IT admin sets up',
  description:
    'Called by the onboarding page with the token of the invitation link: the SSO connection of the organization and environment of the invitation, or null when there is none yet.',
  auth: 'admin_invitation',
  subject: subjects.authMethods.sso.find,
  request: { body: adminInvitationBodySchema },
  response: { status: 200, description: 'The connection, or null', schema: maybeSsoConnectionSchema },
  errors: [],
  rateLimits: invitationRateLimits,
});

export const configureAdminInvitationSsoConnection = defineOperation({
  operationId: 'configureAdminInvitationSsoConnection',
  method: 'put',
  path: '/api/v2/admin-invitations/sso/connection',
  tag: 'Admins',
  summary: 'An IT admin gives their identity provider and its metadata',
  description:
    'Called by the onboarding page with the token of the invitation link: creates the SSO connection of the organization and environment of the invitation, or updates its provider and metadata. The metadata must be valid XML with at least one signing certificate, none expired.',
  auth: 'admin_invitation',
  subject: subjects.authMethods.sso.configure,
  request: { body: adminInvitationSsoConnectionBodySchema },
  response: { status: 200, description: 'The connection', schema: ssoConnectionSchema },
  errors: ['resource_not_found'],
  rateLimits: invitationRateLimits,
});

export const adminInvitationSsoTestBodySchema = adminInvitationBodySchema
  .extend({
    return_url: z
      .url({ protocol: /^https?$/ })
      .max(2_000)
      .meta({ description: 'Where the browser comes back after the identity provider: the onboarding page' }),
  })
  .meta({ id: 'AdminInvitationSsoTestRequest' });
export const adminInvitationSsoTestResultBodySchema = adminInvitationBodySchema
  .extend({ request_id: z.uuid() })
  .meta({ id: 'AdminInvitationSsoTestResultRequest' });

export const startAdminInvitationSsoTest = defineOperation({
  operationId: 'startAdminInvitationSsoTest',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/test',
  tag: 'Admins',
  summary: 'An IT admin starts a test sign-in',
  description:
    'Called by the onboarding page with the token of the invitation link: an SP-initiated SAML sign-in with the connection of the invitation’s organization and environment (it needs the identity provider’s metadata). The browser follows `authorization_url`; after the identity provider it comes back to `return_url` (under Sesame’s public URL) with `request_id` and `sso_test=success` or `failed`. No user is created, no code is issued.',
  auth: 'admin_invitation',
  subject: subjects.authMethods.sso.testSignIn,
  request: { body: adminInvitationSsoTestBodySchema },
  response: { status: 200, description: 'Where to send the browser', schema: testSignInSchema },
  errors: ['resource_not_found'],
  rateLimits: invitationRateLimits,
});

export const getAdminInvitationSsoTestResult = defineOperation({
  operationId: 'getAdminInvitationSsoTestResult',
  method: 'post',
  path: '/api/v2/admin-invitations/sso/test-result',
  tag: 'Admins',
  summary: 'What a test sign-in brought back',
  description:
    'Called by the onboarding page with the token of the invitation link and the `request_id` of a test sign-in: the NameID, email and attributes the identity provider sent, the profile Sesame maps from them, or why the sign-in was refused.',
  auth: 'admin_invitation',
  subject: subjects.authMethods.sso.testResult,
  request: { body: adminInvitationSsoTestResultBodySchema },
  response: { status: 200, description: 'The outcome', schema: testResultSchema },
  errors: ['resource_not_found'],
  rateLimits: invitationRateLimits,
});

export const adminOnboardingOperations = [
  getAdminInvitationSpSettings,
  getAdminInvitationSsoConnection,
  configureAdminInvitationSsoConnection,
  startAdminInvitationSsoTest,
  getAdminInvitationSsoTestResult,
];
