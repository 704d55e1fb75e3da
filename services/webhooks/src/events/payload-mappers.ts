import type {
  AdminEvent,
  AttributesMappingEvent,
  AuthorizationCodeEvent,
  CodeExchangeFailureEvent,
  DirectorySyncEventData,
  GroupEvent,
  MagicLinkConnectionEvent,
  OrganizationEvent,
  PasswordCodeEvent,
  PasswordConnectionEvent,
  PasswordEvent,
  RedirectUriEvent,
  RelayCodeEvent,
  RelayEvent,
  ScimProvisioningFailureEventData,
  SignInSession,
  SsoChallengeEvent,
  SsoConnectionEvent,
  TotpConnectionEvent,
  TotpEnrollmentEvent,
  UserEvent,
  UserMetakeyEvent,
  WebhookEventCode,
  WebhookPayload,
} from '@sesame/contracts';
import { domainVerificationRecordName } from '@sesame/contracts';

/** What the mapper of `C` answers: exactly the fields of its schema (an extra one does not compile). */
type Payload<C extends WebhookEventCode> = WebhookPayload<C>;
type DataOf<E extends { type: string; data: unknown }, T extends E['type']> = Extract<E, { type: T }>['data'];
type Organization<T extends OrganizationEvent['type']> = DataOf<OrganizationEvent, T>;
type User<T extends UserEvent['type']> = DataOf<UserEvent, T>;
type Admin = DataOf<AdminEvent, AdminEvent['type']>;
type Group<T extends GroupEvent['type']> = DataOf<GroupEvent, T>;
type Metakey<T extends UserMetakeyEvent['type']> = DataOf<UserMetakeyEvent, T>;
type RedirectUri<T extends RedirectUriEvent['type']> = DataOf<RedirectUriEvent, T>;
type Totp<T extends TotpEnrollmentEvent['type']> = DataOf<TotpEnrollmentEvent, T>;
type SsoChallenge<T extends SsoChallengeEvent['type']> = DataOf<SsoChallengeEvent, T>;
type PasswordConnection<T extends PasswordConnectionEvent['type']> = DataOf<PasswordConnectionEvent, T>;
/** A magic-link code's issue or redemption: published only with its session (the mapping's code rule checks `method`). */
type MagicLinkCode<T extends AuthorizationCodeEvent['type']> = DataOf<AuthorizationCodeEvent, T> & SignInSession;
/** A refused exchange of an issued code (the mapping's code rule chooses the code by `method`). */
type CodeExchangeFailure = DataOf<CodeExchangeFailureEvent, 'AuthorizationCodeExchangeFailed'>;
/** Password challenges carry nothing but their time: the email is the one of their stream. */
type PasswordAttempt = { email: string };
/** Directory syncs and SCIM changes carry their webhook-facing data ready in `event`. */
type DirectorySyncChange = { event: DirectorySyncEventData };

/**
 * How each code's public payload is built from its internal event's data: field by field (an
 * allow-list), each typed by the code's schema, so a field of the internal event that is not
 * named here never reaches a subscriber. Nested objects are the contracts' own (a user, an admin,
 * a connection): the code's schema parses them before a job is queued, which drops any other field.
 */
export const payloadMappers = {
  'organization.created': (data: Organization<'OrganizationCreated'>): Payload<'organization.created'> => ({
    id: data.id,
    domain: data.domain,
    name: data.name,
    allowed_email_domains: data.allowed_email_domains,
    allowed_authn_connections: data.allowed_authn_connections,
    color: data.color,
    icon_logo_url: data.icon_logo_url,
    inline_logo_url: data.inline_logo_url,
    locale: data.locale,
    timezone: data.timezone,
    tenant_id: data.tenant_id ?? null,
    environments: data.environments,
  }),
  'organization.updated': (data: Organization<'OrganizationUpdated'>): Payload<'organization.updated'> => ({
    changes: data.changes,
  }),
  'organization.deleted': (data: Organization<'OrganizationDeleted'>): Payload<'organization.deleted'> => ({
    domain: data.domain,
  }),
  'organization.domain.verification_started': (
    data: Organization<'DomainVerificationStarted'>,
  ): Payload<'organization.domain.verification_started'> => ({
    email_domain: data.email_domain,
    record_name: domainVerificationRecordName(data.email_domain),
  }),
  'organization.domain.verified': (data: Organization<'DomainVerified'>): Payload<'organization.domain.verified'> => ({
    email_domain: data.email_domain,
    method: data.method,
  }),
  'organization.domain.verification_failed': (
    data: Organization<'DomainVerificationFailed'>,
  ): Payload<'organization.domain.verification_failed'> => ({
    email_domain: data.email_domain,
    reason: data.reason,
  }),
  'user.created': (data: User<'UserCreated'>): Payload<'user.created'> => ({
    ...tenantOf(data),
    user: data.user,
    source: data.source,
  }),
  'user.updated': (data: User<'UserUpdated'>): Payload<'user.updated'> => userChange(data),
  'user.deactivated': (data: User<'UserDeactivated'>): Payload<'user.deactivated'> => userChange(data),
  'user.identity_recorded': (data: User<'UserIdentityRecorded'>): Payload<'user.identity_recorded'> => ({
    ...userChange(data),
    identity: data.identity,
  }),
  'user.deleted': (data: User<'UserDeleted'>): Payload<'user.deleted'> => ({
    ...tenantOf(data),
    user: data.user,
    reason: data.reason,
  }),
  // Never the email hashes: they only serve the feed's own erasure.
  'user.erased': (data: User<'UserErased'>): Payload<'user.erased'> => ({
    ...tenantOf(data),
    user_id: data.user_id,
    pseudonym: data.pseudonym,
  }),
  'admin.invited': (data: DataOf<AdminEvent, 'AdminInvited'>): Payload<'admin.invited'> => ({
    ...adminOf(data),
    invitation_expires_at: data.invitation_expires_at,
  }),
  'admin.invitation_accepted': (data: Admin): Payload<'admin.invitation_accepted'> => adminOf(data),
  'admin.invitation_declined': (data: Admin): Payload<'admin.invitation_declined'> => adminOf(data),
  'admin.logged_in': (data: Admin): Payload<'admin.logged_in'> => adminOf(data),
  'admin.deleted': (data: DataOf<AdminEvent, 'AdminRemoved'>): Payload<'admin.deleted'> => ({
    ...adminOf(data),
    reason: data.reason,
  }),
  'redirect_uri.created': (data: RedirectUri<'RedirectUriAdded'>): Payload<'redirect_uri.created'> => ({
    redirect_uri: data.redirect_uri,
    default: data.default,
  }),
  'redirect_uri.default_changed': (data: RedirectUri<'DefaultRedirectUriChanged'>): Payload<'redirect_uri.default_changed'> => ({
    id: data.id,
    previous_id: data.previous_id,
  }),
  'redirect_uri.deleted': (data: RedirectUri<'RedirectUriRemoved'>): Payload<'redirect_uri.deleted'> => ({
    id: data.id,
    url: data.url,
  }),
  'user_metakey.created': (data: Metakey<'UserMetakeyCreated'>): Payload<'user_metakey.created'> => ({ metakey: data.metakey }),
  'user_metakey.deletion_started': (data: Metakey<'UserMetakeyDeletionStarted'>): Payload<'user_metakey.deletion_started'> => ({
    name: data.name,
  }),
  'user_metakey.deleted': (data: Metakey<'UserMetakeyDeleted'>): Payload<'user_metakey.deleted'> => ({
    name: data.name,
    users_cleaned: data.users_cleaned,
  }),
  'group.created': (data: Group<'GroupCreated'>): Payload<'group.created'> => groupOf(data),
  'group.updated': (data: Group<'GroupRenamed'>): Payload<'group.updated'> => ({
    ...groupOf(data),
    previous_display_name: data.previous_display_name,
  }),
  'group.members_added': (data: Group<'GroupMembersAdded'>): Payload<'group.members_added'> => ({
    ...groupOf(data),
    members: data.members,
  }),
  'group.members_removed': (data: Group<'GroupMembersRemoved'>): Payload<'group.members_removed'> => ({
    ...groupOf(data),
    members: data.members,
  }),
  'group.deleted': (data: Group<'GroupDeleted'>): Payload<'group.deleted'> => ({ ...groupOf(data), reason: data.reason }),
  'password_connection.created': (
    data: PasswordConnection<'PasswordConnectionCreated'>,
  ): Payload<'password_connection.created'> => ({
    id: data.id,
    ...passwordSettingsOf(data),
    organization_domain: data.organization_domain,
  }),
  'password_connection.updated': (
    data: PasswordConnection<'PasswordConnectionUpdated'>,
  ): Payload<'password_connection.updated'> => ({
    id: data.id,
    ...passwordSettingsOf(data),
  }),
  'password.created': (data: DataOf<PasswordEvent, 'PasswordSet'>): Payload<'password.created'> => ({
    ...passwordSetOf(data),
    previous_password_id: null,
  }),
  'password.updated': (data: DataOf<PasswordEvent, 'PasswordSet'>): Payload<'password.updated'> => ({
    ...passwordSetOf(data),
    previous_password_id: data.previous_password_id as string,
  }),
  'password.challenge.succeeded': (data: PasswordAttempt): Payload<'password.challenge.succeeded'> => ({ email: data.email }),
  'password.challenge.failed': (data: PasswordAttempt): Payload<'password.challenge.failed'> => ({ email: data.email }),
  'password.request.created': (data: DataOf<PasswordCodeEvent, 'PasswordCodeIssued'>): Payload<'password.request.created'> => ({
    reason: data.reason,
    request_id: data.request_id,
    user_id: data.user_id,
    organization_domain: data.organization_domain,
    redirect_uri: data.redirect_uri,
    expires_at: data.expires_at,
    proven_email: data.proven_email,
  }),
  'magic_link_connection.created': (
    data: DataOf<MagicLinkConnectionEvent, 'MagicLinkConnectionCreated'>,
  ): Payload<'magic_link_connection.created'> => connectionOf(data),
  'magic_link_connection.updated': (
    data: DataOf<MagicLinkConnectionEvent, 'MagicLinkConnectionUpdated'>,
  ): Payload<'magic_link_connection.updated'> => connectionOf(data),
  'magic_link.challenge.created': (data: MagicLinkCode<'AuthorizationCodeIssued'>): Payload<'magic_link.challenge.created'> => ({
    ...magicLinkSignInOf(data),
    redirect_uri: data.redirect_uri,
    expires_at: data.expires_at,
    proven_email: data.proven_email,
  }),
  'magic_link.challenge.succeeded': (
    data: MagicLinkCode<'AuthorizationCodeRedeemed'>,
  ): Payload<'magic_link.challenge.succeeded'> => ({
    ...magicLinkSignInOf(data),
    family_id: data.family_id,
  }),
  'magic_link.challenge.failed': (data: CodeExchangeFailure): Payload<'magic_link.challenge.failed'> => ({
    ...codeExchangeFailureOf(data),
    method: 'magic_link' as const,
  }),
  'authorization_code.exchange.failed': (data: CodeExchangeFailure): Payload<'authorization_code.exchange.failed'> => ({
    ...codeExchangeFailureOf(data),
    method: data.method,
  }),
  'totp_connection.updated': (data: DataOf<TotpConnectionEvent, 'TotpConnectionUpdated'>): Payload<'totp_connection.updated'> =>
    connectionOf(data),
  'totp.enrollment.created': (data: Totp<'TotpEnrolled'>): Payload<'totp.enrollment.created'> => ({
    organization_id: data.organization_id,
    organization_domain: data.organization_domain,
    user_id: data.user_id,
    email: data.email,
    method: data.method,
    period: data.period,
    enrollment_nb: data.enrollment_nb,
  }),
  'totp.enrollment.validated': (data: Totp<'TotpEnrollmentValidated'>): Payload<'totp.enrollment.validated'> => ({
    organization_domain: data.organization_domain,
    user_id: data.user_id,
    enrollment_nb: data.enrollment_nb,
  }),
  'totp.challenge.created': (data: Totp<'TotpChallengeCreated'>): Payload<'totp.challenge.created'> => ({
    organization_domain: data.organization_domain,
    user_id: data.user_id,
    request_id: data.request_id,
    sent_at: data.sent_at,
  }),
  'totp.challenge.succeeded': (data: Totp<'TotpChallengeSucceeded'>): Payload<'totp.challenge.succeeded'> => ({
    organization_domain: data.organization_domain,
    user_id: data.user_id,
    request_id: data.request_id,
  }),
  'totp.challenge.failed': (data: Totp<'TotpCodeRejected'>): Payload<'totp.challenge.failed'> => ({
    organization_domain: data.organization_domain,
    user_id: data.user_id,
    failed_attempts: data.failed_attempts,
    locked_until: data.locked_until,
  }),
  'sso_connection.created': (data: DataOf<SsoConnectionEvent, 'SsoConnectionCreated'>): Payload<'sso_connection.created'> => ({
    id: data.id,
    sp_id: data.sp_id,
    organization_domain: data.organization_domain,
    settings: data.settings,
    idp: data.idp,
  }),
  'sso_connection.updated': (data: DataOf<SsoConnectionEvent, 'SsoConnectionUpdated'>): Payload<'sso_connection.updated'> => ({
    sp_id: data.sp_id,
    organization_domain: data.organization_domain,
    settings: data.settings,
    idp: data.idp,
  }),
  'sso.login.succeeded': (data: SsoChallenge<'SsoChallengeCompleted'>): Payload<'sso.login.succeeded'> => ({
    ...ssoSignInOf(data),
    assertion_id: data.assertion_id,
    subject: data.subject,
  }),
  'sso.login.failed': (data: SsoChallenge<'SsoChallengeFailed'>): Payload<'sso.login.failed'> => ({
    ...ssoSignInOf(data),
    reason: data.reason,
  }),
  'relay.created': (data: DataOf<RelayEvent, 'RelayCreated'>): Payload<'relay.created'> => ({ relay: data.relay }),
  'relay.updated': (data: DataOf<RelayEvent, 'RelayUpdated'>): Payload<'relay.updated'> => ({ relay: data.relay }),
  'relay.deleted': (data: DataOf<RelayEvent, 'RelayDeleted'>): Payload<'relay.deleted'> => ({ relay: data.relay }),
  'relay.request.created': (data: DataOf<RelayCodeEvent, 'RelayCodeIssued'>): Payload<'relay.request.created'> => ({
    relay_id: data.relay_id,
    from_user_id: data.from_user_id,
    from_organization_domain: data.from_organization_domain,
    partner_domain: data.partner_domain,
    partner_user_id: data.partner_user_id,
    partner_redirect_uri: data.partner_redirect_uri,
    session_duration_minutes: data.session_duration_minutes,
    expires_at: data.expires_at,
  }),
  'directory_sync.created': (data: DirectorySyncChange): Payload<'directory_sync.created'> => data.event,
  'directory_sync.updated': (data: DirectorySyncChange): Payload<'directory_sync.updated'> => data.event,
  'directory_sync.token_rotated': (data: DirectorySyncChange): Payload<'directory_sync.token_rotated'> => data.event,
  'directory_sync.attributes_mapping.updated': (
    data: DataOf<AttributesMappingEvent, 'AttributesMappingChanged'>,
  ): Payload<'directory_sync.attributes_mapping.updated'> => ({
    attributes: data.attributes,
    previous_attributes: data.previous_attributes,
  }),
  'directory_sync.user.provisioning.success': (data: DirectorySyncChange): Payload<'directory_sync.user.provisioning.success'> =>
    data.event,
  'directory_sync.user.provisioning.failure': (data: {
    event: ScimProvisioningFailureEventData;
  }): Payload<'directory_sync.user.provisioning.failure'> => data.event,
  'directory_sync.user.update.success': (data: DirectorySyncChange): Payload<'directory_sync.user.update.success'> => data.event,
  'directory_sync.user.deactivation.success': (data: DirectorySyncChange): Payload<'directory_sync.user.deactivation.success'> =>
    data.event,
  'directory_sync.user.deletion.success': (data: DirectorySyncChange): Payload<'directory_sync.user.deletion.success'> =>
    data.event,
  'directory_sync.group.creation.success': (data: DirectorySyncChange): Payload<'directory_sync.group.creation.success'> =>
    data.event,
  'directory_sync.group.update.success': (data: DirectorySyncChange): Payload<'directory_sync.group.update.success'> =>
    data.event,
  'directory_sync.group.deletion.success': (data: DirectorySyncChange): Payload<'directory_sync.group.deletion.success'> =>
    data.event,
} satisfies { [C in WebhookEventCode]: (data: never) => WebhookPayload<C> };

function tenantOf(data: {
  organization_domain: string;
  organization_id: string;
}): Pick<Payload<'user.created'>, 'organization_domain' | 'organization_id'> {
  return { organization_domain: data.organization_domain, organization_id: data.organization_id };
}

function userChange(data: User<'UserUpdated'>): Payload<'user.updated'> {
  return { ...tenantOf(data), user: data.user, changes: data.changes, previous_values: data.previous_values };
}

function adminOf(data: Admin): Payload<'admin.logged_in'> {
  return { ...tenantOf(data), admin: data.admin };
}

function groupOf(data: Group<GroupEvent['type']>): Payload<'group.created'> {
  return { ...tenantOf(data), group: data.group };
}

function passwordSettingsOf(
  data: PasswordConnection<'PasswordConnectionUpdated'>,
): Omit<Payload<'password_connection.updated'>, 'id'> {
  return {
    active: data.active,
    plain_text_min_length: data.plain_text_min_length,
    plain_text_max_length: data.plain_text_max_length,
    pepper_rotation_period: data.pepper_rotation_period,
  };
}

function passwordSetOf(data: DataOf<PasswordEvent, 'PasswordSet'>): Omit<Payload<'password.updated'>, 'previous_password_id'> {
  return { password_id: data.password_id, user_id: data.user_id, organization_domain: data.organization_domain };
}

function connectionOf<T>(data: { organization_id: string; organization_domain: string; connection: T }) {
  return { ...tenantOf(data), connection: data.connection };
}

function magicLinkSignInOf(data: SignInSession): Omit<Payload<'magic_link.challenge.succeeded'>, 'family_id'> {
  return {
    organization_domain: data.organization_domain,
    user_id: data.user_id,
    method: 'magic_link' as const,
    client_id: data.client_id,
    scope: data.scope,
    authenticated_at: data.authenticated_at,
  };
}

function codeExchangeFailureOf(data: CodeExchangeFailure): Omit<Payload<'authorization_code.exchange.failed'>, 'method'> {
  return {
    organization_domain: data.organization_domain,
    user_id: data.user_id,
    client_id: data.client_id,
    reason: data.reason,
  };
}

function ssoSignInOf(
  data: Pick<SsoChallenge<'SsoChallengeFailed'>, 'organization_domain' | 'sso_connection_id' | 'request_id'>,
): Omit<Payload<'sso.login.failed'>, 'reason'> {
  return {
    organization_domain: data.organization_domain,
    sso_connection_id: data.sso_connection_id,
    request_id: data.request_id,
  };
}
