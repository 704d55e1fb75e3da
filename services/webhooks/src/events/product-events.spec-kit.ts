import type { ServiceName, WebhookEventCode } from '@sesame/contracts';
import { aUser } from '@sesame/platform/testing';

/**
 * For the webhook mapping specs: one internal event of the product per catalogue code, complete as
 * its service records it (secrets and bookkeeping included), and the public payload a subscriber
 * receives for it.
 */
export interface ProductEventCase {
  source: ServiceName;
  stream: string;
  type: string;
  data: Record<string, unknown>;
  /** The `data` of the delivered event. */
  payload: Record<string, unknown>;
  domain: string | null;
  environment: 'sandbox' | 'production';
}

const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-01T01:00:00.000Z';
const organizationId = '0b6f0a5e-3c3e-4f4e-9a55-1f2d3c4b5a69';
const userId = '5f0e6b8a-2c1d-4e3f-8a9b-0c1d2e3f4a5b';
const where = { organization_domain: 'acme', organization_id: organizationId };
const tenant = { ...where, environment: 'production', at };

export const user = aUser({
  __environment__: 'production',
  id: userId,
  email: 'ada@acme.com',
  phone_number: '+33612345678',
  address: { country: 'FR', formatted: null, locality: 'Lyon', postal_code: '69002', region: null, street_address: '1 rue Ada' },
  metadata: { plan: 'pro' },
  inserted_at: at,
  updated_at: at,
});
const admin = {
  __type__: 'Admin',
  __domain__: 'acme',
  __environment__: 'production',
  id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  email: 'it@acme.com',
  organization: 'acme',
  color: null,
  invited_at: at,
  accepted_invitation_at: null,
  declined_to_be_in_charge_at: null,
  last_login_at: null,
};
const group = { id: 'g-1', display_name: 'Engineering', members: [userId], inserted_at: at, updated_at: at };
const settings = {
  name: 'Acme',
  allowed_email_domains: ['acme.com'],
  allowed_authn_connections: ['sso', 'password'],
  color: '#123456',
  icon_logo_url: null,
  inline_logo_url: null,
  locale: 'fr',
  timezone: null,
  tenant_id: 'crm-42',
  environments: [{ name: 'production', status: 'up' }],
};
const userChange = { user, changes: { email: 'ada@acme.com' }, previous_values: { email: 'ada@old.com' } };
const passwordSettings = { active: true, plain_text_min_length: 8, plain_text_max_length: 128, pepper_rotation_period: 86_400 };
const passwordHash = { hash: '$argon2id$v=19$m=65536$abc', pepper_kid: 'p1', pepper_epoch: 3 };
const passwordSet = { password_id: 'pw-2', user_id: userId, organization_domain: 'acme' };
const magicLinkConnection = {
  id: 'c0a8f3e2-1b4d-4c6e-8f7a-9b0c1d2e3f4a',
  active: true,
  find_or_create_user: false,
  sign_in_template_id: null,
};
const session = {
  environment: 'production',
  organization_domain: 'acme',
  user_id: userId,
  method: 'magic_link',
  client_id: 'client-1',
  scope: 'openid email profile',
  nonce: 'n0nce',
  authenticated_at: 1_767_225_600,
};
const publishedSession = {
  organization_domain: 'acme',
  user_id: userId,
  method: 'magic_link',
  client_id: 'client-1',
  scope: 'openid email profile',
  authenticated_at: 1_767_225_600,
};
const totpWhere = { organization_domain: 'acme', environment: 'production' };
const ssoSettings = {
  active: true,
  provider_type: 'okta',
  users_access_policy: 'provision_new_users',
  number_users_provisioning_limit: null,
  metadata: null,
  update_profile_only_at_creation: false,
  allow_idp_initiated: false,
  onboarding: null,
};
const idp = {
  entity_id: 'http://www.okta.com/exk1',
  sso_url: 'https://acme.okta.com/app/sso/saml',
  slo_url: null,
  certificates: [{ pem: '-----BEGIN CERTIFICATE-----', fingerprint_sha256: 'AB:CD', not_before: at, not_after: later }],
};
const spKey = { certificate_pem: '-----BEGIN CERTIFICATE-----', encrypted_private_key_pem: 'v1.k.iv.tag.private' };
const ssoWhere = { organization_domain: 'acme', environment: 'production', sso_connection_id: 'sso-1' };
const subject = { name_id: 'ada@acme.com', name_id_format: null, session_index: '_s1', email: 'ada@acme.com', user_id: userId };
const relay = {
  id: 'r-1',
  environment: 'production',
  organization_id: organizationId,
  partner_domain: 'partner',
  source_organizations: ['acme'],
  partner_redirect_uri: 'https://partner.example.com/cb',
  jit: false,
  session_duration_minutes: 60,
  inserted_at: at,
};
const relayRequest = {
  relay_id: 'r-1',
  from_user_id: userId,
  from_organization_domain: 'acme',
  partner_domain: 'partner',
  partner_user_id: '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  partner_redirect_uri: 'https://partner.example.com/cb',
  session_duration_minutes: 60,
  expires_at: later,
};
const directorySync = {
  id: 'd-1',
  organization_domain: 'acme',
  environment: 'production',
  active: true,
  provider_type: 'okta',
  token: { hash: 'tokenhash', hint: 'ab12', provider_key: 'okta' },
  inserted_at: at,
  updated_at: at,
};
const change = (type: string, id: string) => ({
  change: 'created',
  directory_sync_id: 'd-1',
  provider: 'okta',
  resource: { id, type, changes: { new_values: { userName: 'ada@acme.com' }, previous_values: { userName: null } } },
});
const scimResource = (kind: 'User' | 'Group') => ({
  kind,
  id: 's-1',
  directory_sync_id: 'd-1',
  organization_domain: 'acme',
  environment: 'production',
  provider: 'okta',
  resource: { userName: 'ada@acme.com', password: 'never-published' },
  linked_id: userId,
  version: 1,
  created: at,
  last_modified: at,
});

const identityEvent = (
  type: string,
  data: Record<string, unknown>,
  payload: Record<string, unknown>,
  domain: string | null = 'acme',
) => ({
  source: 'identity' as const,
  stream: domain === null ? 'redirectUri-production' : `user-${userId}`,
  type,
  data,
  payload,
  domain,
  environment: 'production' as const,
});
const authMethodsEvent = (stream: string, type: string, data: Record<string, unknown>, payload: Record<string, unknown>) => ({
  source: 'auth-methods' as const,
  stream,
  type,
  data,
  payload,
  domain: 'acme',
  environment: 'production' as const,
});
const directorySyncEvent = (stream: string, type: string, data: Record<string, unknown>, payload: Record<string, unknown>) => ({
  source: 'directory-sync' as const,
  stream,
  type,
  data,
  payload,
  domain: 'acme',
  environment: 'production' as const,
});
const scimChange = (kind: 'User' | 'Group', type: string) =>
  directorySyncEvent(
    `scimResource-s-1`,
    type,
    { scim_resource: scimResource(kind), event: change(kind.toLowerCase(), 's-1') },
    change(kind.toLowerCase(), 's-1'),
  );
const organizationStream = 'organization-production:acme';

export const productEvents: Record<WebhookEventCode, ProductEventCase> = {
  'organization.created': {
    ...identityEvent(
      'OrganizationCreated',
      {
        ...settings,
        provisioners: ['auth-methods', 'directory-sync', 'webhooks'],
        id: organizationId,
        domain: 'acme',
        environment: 'production',
        at,
      },
      { ...settings, id: organizationId, domain: 'acme' },
    ),
    stream: organizationStream,
  },
  'organization.updated': {
    ...identityEvent(
      'OrganizationUpdated',
      { changes: { color: '#ffffff', locale: null }, at },
      { changes: { color: '#ffffff', locale: null } },
    ),
    stream: organizationStream,
  },
  'organization.deleted': {
    ...identityEvent('OrganizationDeleted', { domain: 'acme', environment: 'production', at }, { domain: 'acme' }),
    stream: organizationStream,
  },
  'organization.domain.verification_started': {
    ...identityEvent(
      'DomainVerificationStarted',
      { email_domain: 'acme.com', token: 'q3V8mZr1cXo0Jt5hN2yWbA', at },
      { email_domain: 'acme.com', record_name: '_sesame-verification.acme.com' },
    ),
    stream: organizationStream,
  },
  'organization.domain.verified': {
    ...identityEvent(
      'DomainVerified',
      { email_domain: 'acme.com', method: 'dns_txt', at },
      { email_domain: 'acme.com', method: 'dns_txt' },
    ),
    stream: organizationStream,
  },
  'organization.domain.verification_failed': {
    ...identityEvent(
      'DomainVerificationFailed',
      { email_domain: 'acme.com', reason: 'record_mismatch', at },
      { email_domain: 'acme.com', reason: 'record_mismatch' },
    ),
    stream: organizationStream,
  },
  'user.created': identityEvent(
    'UserCreated',
    { ...tenant, user, source: 'sso', profile_owners: { given_name: 'saml.okta' } },
    { ...where, user, source: 'sso' },
  ),
  'user.updated': identityEvent('UserUpdated', { ...tenant, ...userChange }, { ...where, ...userChange }),
  'user.deactivated': identityEvent('UserDeactivated', { ...tenant, ...userChange }, { ...where, ...userChange }),
  'user.identity_recorded': identityEvent(
    'UserIdentityRecorded',
    {
      ...tenant,
      ...userChange,
      identity: { authenticated_at: 1_767_225_600, data: { department: 'R&D' }, idp_id: 'okta-1', provider: 'saml.okta' },
      profile_owners: { given_name: 'saml.okta' },
    },
    {
      ...where,
      ...userChange,
      identity: { authenticated_at: 1_767_225_600, data: { department: 'R&D' }, idp_id: 'okta-1', provider: 'saml.okta' },
    },
  ),
  'user.deleted': identityEvent('UserDeleted', { ...tenant, user, reason: 'scim' }, { ...where, user, reason: 'scim' }),
  'user.erased': identityEvent(
    'UserErased',
    { ...tenant, user_id: userId, pseudonym: 'erased-1', email_hashes: ['emailhash'] },
    { ...where, user_id: userId, pseudonym: 'erased-1' },
  ),
  'admin.invited': identityEvent(
    'AdminInvited',
    { ...tenant, admin, invitation_hash: 'invitationhash', invitation_expires_at: later },
    { ...where, admin, invitation_expires_at: later },
  ),
  'admin.invitation_accepted': identityEvent('AdminInvitationAccepted', { ...tenant, admin }, { ...where, admin }),
  'admin.invitation_declined': identityEvent('AdminInvitationDeclined', { ...tenant, admin }, { ...where, admin }),
  'admin.logged_in': identityEvent('AdminLoggedIn', { ...tenant, admin }, { ...where, admin }),
  'admin.deleted': identityEvent('AdminRemoved', { ...tenant, admin, reason: 'api' }, { ...where, admin, reason: 'api' }),
  'redirect_uri.created': identityEvent(
    'RedirectUriAdded',
    { environment: 'production', redirect_uri: { id: 'ru-1', url: 'https://app.acme.com/cb', inserted_at: at }, default: true },
    { redirect_uri: { id: 'ru-1', url: 'https://app.acme.com/cb', inserted_at: at }, default: true },
    null,
  ),
  'redirect_uri.default_changed': identityEvent(
    'DefaultRedirectUriChanged',
    { environment: 'production', id: 'ru-2', previous_id: 'ru-1', at },
    { id: 'ru-2', previous_id: 'ru-1' },
    null,
  ),
  'redirect_uri.deleted': identityEvent(
    'RedirectUriRemoved',
    { environment: 'production', id: 'ru-1', url: 'https://app.acme.com/cb', at },
    { id: 'ru-1', url: 'https://app.acme.com/cb' },
    null,
  ),
  'user_metakey.created': identityEvent(
    'UserMetakeyCreated',
    { environment: 'production', metakey: { name: 'plan', required: false, type: 'string' }, at },
    { metakey: { name: 'plan', required: false, type: 'string' } },
    null,
  ),
  'user_metakey.deletion_started': identityEvent(
    'UserMetakeyDeletionStarted',
    { environment: 'production', name: 'plan', at },
    { name: 'plan' },
    null,
  ),
  'user_metakey.deleted': identityEvent(
    'UserMetakeyDeleted',
    { environment: 'production', name: 'plan', users_cleaned: 3, at },
    { name: 'plan', users_cleaned: 3 },
    null,
  ),
  'group.created': identityEvent('GroupCreated', { ...tenant, group }, { ...where, group }),
  'group.updated': identityEvent(
    'GroupRenamed',
    { ...tenant, group, previous_display_name: 'Eng' },
    { ...where, group, previous_display_name: 'Eng' },
  ),
  'group.members_added': identityEvent(
    'GroupMembersAdded',
    { ...tenant, group, members: [userId] },
    { ...where, group, members: [userId] },
  ),
  'group.members_removed': identityEvent(
    'GroupMembersRemoved',
    { ...tenant, group, members: [userId] },
    { ...where, group, members: [userId] },
  ),
  'group.deleted': identityEvent(
    'GroupDeleted',
    { ...tenant, group, reason: 'organization_deleted' },
    { ...where, group, reason: 'organization_deleted' },
  ),
  'password_connection.created': authMethodsEvent(
    'passwordConnection-production:acme',
    'PasswordConnectionCreated',
    { id: 'pc-1', ...passwordSettings, environment: 'production', organization_domain: 'acme', at },
    { id: 'pc-1', ...passwordSettings, organization_domain: 'acme' },
  ),
  'password_connection.updated': authMethodsEvent(
    'passwordConnection-production:acme',
    'PasswordConnectionUpdated',
    { id: 'pc-1', ...passwordSettings, at },
    { id: 'pc-1', ...passwordSettings },
  ),
  'password.created': authMethodsEvent(
    `password-${userId}`,
    'PasswordSet',
    { ...passwordHash, ...passwordSet, environment: 'production', previous_password_id: null, at },
    { ...passwordSet, previous_password_id: null },
  ),
  'password.updated': authMethodsEvent(
    `password-${userId}`,
    'PasswordSet',
    { ...passwordHash, ...passwordSet, environment: 'production', previous_password_id: 'pw-1', at },
    { ...passwordSet, previous_password_id: 'pw-1' },
  ),
  'password.challenge.succeeded': authMethodsEvent(
    'passwordAttempts-production:acme:ada@acme.com',
    'PasswordChallengeSucceeded',
    { at },
    { email: 'ada@acme.com' },
  ),
  'password.challenge.failed': authMethodsEvent(
    'passwordAttempts-production:acme:ada@acme.com',
    'PasswordChallengeFailed',
    { at },
    { email: 'ada@acme.com' },
  ),
  'password.request.created': authMethodsEvent(
    'passwordCode-codehash',
    'PasswordCodeIssued',
    {
      code_hash: 'codehash',
      reason: 'reset',
      request_id: 'rq-1',
      user_id: userId,
      environment: 'production',
      organization_domain: 'acme',
      redirect_uri: null,
      expires_at: later,
      at,
      proven_email: 'ada@acme.com',
    },
    {
      reason: 'reset',
      request_id: 'rq-1',
      user_id: userId,
      organization_domain: 'acme',
      redirect_uri: null,
      expires_at: later,
      proven_email: 'ada@acme.com',
    },
  ),
  'magic_link_connection.created': authMethodsEvent(
    'magicLinkConnection-production:acme',
    'MagicLinkConnectionCreated',
    { ...tenant, connection: magicLinkConnection },
    { ...where, connection: magicLinkConnection },
  ),
  'magic_link_connection.updated': authMethodsEvent(
    'magicLinkConnection-production:acme',
    'MagicLinkConnectionUpdated',
    { ...tenant, connection: magicLinkConnection },
    { ...where, connection: magicLinkConnection },
  ),
  'magic_link.challenge.created': authMethodsEvent(
    'authorizationCode-codehash',
    'AuthorizationCodeIssued',
    {
      ...session,
      code_hash: 'codehash',
      redirect_uri: 'https://app.acme.com/cb',
      expires_at: later,
      at,
      code_challenge: 'pkcechallenge',
    },
    { ...publishedSession, redirect_uri: 'https://app.acme.com/cb', expires_at: later },
  ),
  'magic_link.challenge.succeeded': authMethodsEvent(
    'authorizationCode-codehash',
    'AuthorizationCodeRedeemed',
    { ...session, code_hash: 'codehash', family_id: 'f-1', at },
    { ...publishedSession, family_id: 'f-1' },
  ),
  'magic_link.challenge.failed': authMethodsEvent(
    'codeExchangeFailures-codehash',
    'AuthorizationCodeExchangeFailed',
    {
      environment: 'production',
      organization_domain: 'acme',
      organization_id: 'org-1',
      user_id: userId,
      method: 'magic_link',
      client_id: 'client-1',
      reason: 'already_used',
      at,
    },
    { organization_domain: 'acme', user_id: userId, method: 'magic_link', client_id: 'client-1', reason: 'already_used' },
  ),
  'authorization_code.exchange.failed': authMethodsEvent(
    'codeExchangeFailures-codehash',
    'AuthorizationCodeExchangeFailed',
    {
      environment: 'production',
      organization_domain: 'acme',
      organization_id: 'org-1',
      user_id: userId,
      method: 'password',
      client_id: null,
      reason: 'code_verifier_mismatch',
      at,
    },
    { organization_domain: 'acme', user_id: userId, method: 'password', client_id: null, reason: 'code_verifier_mismatch' },
  ),
  'totp_connection.updated': authMethodsEvent(
    'totpConnection-production:acme',
    'TotpConnectionUpdated',
    { ...tenant, connection: { active: true, method: 'sms', expiry_in_seconds: 300 } },
    { ...where, connection: { active: true, method: 'sms', expiry_in_seconds: 300 } },
  ),
  'totp.enrollment.created': authMethodsEvent(
    `totpEnrollment-${userId}`,
    'TotpEnrolled',
    {
      ...tenant,
      user_id: userId,
      email: 'ada@acme.com',
      method: 'sms',
      period: 600,
      encrypted_secret: 'v1.k.iv.tag.secret',
      first_counter: 3,
      enrollment_nb: 1,
      recovery_code_hashes: ['recoveryhash'],
    },
    { ...where, user_id: userId, email: 'ada@acme.com', method: 'sms', period: 600, enrollment_nb: 1 },
  ),
  'totp.enrollment.validated': authMethodsEvent(
    `totpEnrollment-${userId}`,
    'TotpEnrollmentValidated',
    { ...totpWhere, user_id: userId, enrollment_nb: 1, step: 9, at },
    { organization_domain: 'acme', user_id: userId, enrollment_nb: 1 },
  ),
  'totp.challenge.created': authMethodsEvent(
    `totpEnrollment-${userId}`,
    'TotpChallengeCreated',
    { ...totpWhere, user_id: userId, request_id: 'tq-1', counter: 4, sent_at: at, at },
    { organization_domain: 'acme', user_id: userId, request_id: 'tq-1', sent_at: at },
  ),
  'totp.challenge.succeeded': authMethodsEvent(
    `totpEnrollment-${userId}`,
    'TotpChallengeSucceeded',
    { ...totpWhere, user_id: userId, request_id: 'tq-1', step: 9, recovery_code_hash: 'recoveryhash', at },
    { organization_domain: 'acme', user_id: userId, request_id: 'tq-1' },
  ),
  'totp.challenge.failed': authMethodsEvent(
    `totpEnrollment-${userId}`,
    'TotpCodeRejected',
    { ...totpWhere, user_id: userId, failed_attempts: 5, locked_until: later, at },
    { organization_domain: 'acme', user_id: userId, failed_attempts: 5, locked_until: later },
  ),
  'sso_connection.created': authMethodsEvent(
    'ssoConnection-acme_production',
    'SsoConnectionCreated',
    {
      id: 'sso-1',
      sp_id: 'acme_production',
      organization_domain: 'acme',
      environment: 'production',
      settings: ssoSettings,
      idp: null,
      sp_key: spKey,
      sp_encryption_key: spKey,
      at,
    },
    { id: 'sso-1', sp_id: 'acme_production', organization_domain: 'acme', settings: ssoSettings, idp: null },
  ),
  'sso_connection.updated': authMethodsEvent(
    'ssoConnection-acme_production',
    'SsoConnectionUpdated',
    {
      sp_id: 'acme_production',
      organization_domain: 'acme',
      environment: 'production',
      settings: ssoSettings,
      idp,
      sp_encryption_key: spKey,
      at,
    },
    { sp_id: 'acme_production', organization_domain: 'acme', settings: ssoSettings, idp },
  ),
  'sso.login.succeeded': authMethodsEvent(
    'ssoChallenge-rq-1',
    'SsoChallengeCompleted',
    { ...ssoWhere, request_id: 'rq-1', assertion_id: '_a1', subject, at },
    { organization_domain: 'acme', sso_connection_id: 'sso-1', request_id: 'rq-1', assertion_id: '_a1', subject },
  ),
  'sso.login.failed': authMethodsEvent(
    'ssoChallenge-rq-1',
    'SsoChallengeFailed',
    { ...ssoWhere, request_id: 'rq-1', reason: 'signature_invalid', at },
    { organization_domain: 'acme', sso_connection_id: 'sso-1', request_id: 'rq-1', reason: 'signature_invalid' },
  ),
  'relay.created': { ...authMethodsEvent('relay-r-1', 'RelayCreated', { relay, at }, { relay }), domain: 'partner' },
  'relay.updated': { ...authMethodsEvent('relay-r-1', 'RelayUpdated', { relay, at }, { relay }), domain: 'partner' },
  'relay.deleted': { ...authMethodsEvent('relay-r-1', 'RelayDeleted', { relay, at }, { relay }), domain: 'partner' },
  'relay.request.created': {
    ...authMethodsEvent(
      'relayCode-codehash',
      'RelayCodeIssued',
      { code_hash: 'codehash', ...relayRequest, environment: 'production', at },
      relayRequest,
    ),
    domain: 'partner',
  },
  'directory_sync.created': directorySyncEvent(
    'directorySync-d-1',
    'DirectorySyncCreated',
    { directory_sync: directorySync, event: change('directory_sync', 'd-1') },
    change('directory_sync', 'd-1'),
  ),
  'directory_sync.updated': directorySyncEvent(
    'directorySync-d-1',
    'DirectorySyncUpdated',
    { directory_sync: directorySync, event: change('directory_sync', 'd-1') },
    change('directory_sync', 'd-1'),
  ),
  'directory_sync.token_rotated': directorySyncEvent(
    'directorySync-d-1',
    'DirectorySyncTokenRotated',
    { directory_sync: directorySync, event: change('directory_sync', 'd-1') },
    change('directory_sync', 'd-1'),
  ),
  'directory_sync.attributes_mapping.updated': {
    ...directorySyncEvent(
      'attributesMapping-production',
      'AttributesMappingChanged',
      {
        environment: 'production',
        attributes: [{ name: 'name.givenName', mapped_name: 'profile.given_name', required: false }],
        previous_attributes: [],
        at,
      },
      { attributes: [{ name: 'name.givenName', mapped_name: 'profile.given_name', required: false }], previous_attributes: [] },
    ),
    domain: null,
  },
  'directory_sync.user.provisioning.success': scimChange('User', 'ScimUserProvisioned'),
  'directory_sync.user.provisioning.failure': directorySyncEvent(
    'scimProvisioningFailure-f-1',
    'ScimUserProvisioningFailed',
    {
      organization_domain: 'acme',
      environment: 'production',
      event: {
        directory_sync_id: 'd-1',
        provider: 'azure_ad',
        resource: { type: 'user', user_name: 'ada@acme.com', external_id: 'x1' },
        error: { status: 409, scim_type: 'uniqueness', detail: "The userName 'ada@acme.com' is already taken in this directory" },
      },
      at,
    },
    {
      directory_sync_id: 'd-1',
      provider: 'azure_ad',
      resource: { type: 'user', user_name: 'ada@acme.com', external_id: 'x1' },
      error: { status: 409, scim_type: 'uniqueness', detail: "The userName 'ada@acme.com' is already taken in this directory" },
    },
  ),
  'directory_sync.user.update.success': scimChange('User', 'ScimUserUpdated'),
  'directory_sync.user.deactivation.success': scimChange('User', 'ScimUserDeactivated'),
  'directory_sync.user.deletion.success': scimChange('User', 'ScimUserDeleted'),
  'directory_sync.group.creation.success': scimChange('Group', 'ScimGroupCreated'),
  'directory_sync.group.update.success': scimChange('Group', 'ScimGroupUpdated'),
  'directory_sync.group.deletion.success': scimChange('Group', 'ScimGroupDeleted'),
};
