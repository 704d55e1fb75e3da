/**
 * The published catalogue of webhook event codes: every event the product emits, by the service
 * that emits it. A webhook subscribes to codes of this list (`event_codes`), and
 * `POST /api/v2/webhook-events/trigger-test` accepts any of them. Codes are stable: never rename
 * or remove one, add a new one instead.
 */
export const webhookEventCatalogue = {
  // identity: organizations
  'organization.created': 'An organization was created',
  'organization.updated': 'An organization was updated',
  'organization.deleted': 'An organization was deleted',
  'organization.domain.verification_started': 'A verification of an email domain started: its TXT record awaits a check',
  'organization.domain.verified':
    'An email domain was verified (DNS TXT record or vendor assertion): it routes sign-ins by email',
  'organization.domain.verification_failed': "A DNS check did not find an email domain's verification record",
  // identity: users
  'user.created': 'A user was created (API, SSO, SCIM, magic link or password)',
  'user.updated': 'A user was updated',
  'user.deactivated': 'A user was deactivated',
  'user.identity_recorded': 'A user signed in through an identity provider; the profile it owns was refreshed',
  'user.deleted': 'A user was deleted',
  'user.erased': "A user's personal data was erased from the events feed (pseudonymised) on a privacy request",
  // identity: IT admins
  'admin.invited': 'An IT admin was invited',
  'admin.invitation_accepted': 'An IT admin accepted the invitation',
  'admin.invitation_declined': 'An IT admin declined the invitation',
  'admin.logged_in': 'An IT admin signed in',
  'admin.deleted': 'An IT admin was removed',
  // identity: redirect URIs
  'redirect_uri.created': 'A redirect URI was added',
  'redirect_uri.default_changed': 'Another redirect URI became the default',
  'redirect_uri.deleted': 'A redirect URI was removed',
  // identity: user metadata keys
  'user_metakey.created': 'A user metadata key was created',
  'user_metakey.deletion_started': 'A user metadata key is being deleted (locked)',
  'user_metakey.deleted': 'A user metadata key was deleted from every user',
  // identity: groups
  'group.created': 'A group was created',
  'group.updated': 'A group was renamed',
  'group.members_added': 'Members were added to a group',
  'group.members_removed': 'Members were removed from a group',
  'group.deleted': 'A group was deleted',
  // auth-methods: password
  'password_connection.created': 'A password connection was created',
  'password_connection.updated': 'A password connection was updated',
  'password.created': 'A password was set for a user',
  'password.updated': 'A user changed or reset a password',
  'password.challenge.succeeded': 'A password sign-in succeeded',
  'password.challenge.failed': 'A password sign-in failed',
  'password.request.created': 'A password reset was requested',
  // auth-methods: magic link
  'magic_link_connection.created': 'A magic-link connection was created',
  'magic_link_connection.updated': 'A magic-link connection was updated',
  'magic_link.challenge.created': 'A magic link was sent',
  'magic_link.challenge.succeeded': 'A magic link was used to sign in',
  'magic_link.challenge.failed': 'A magic link was refused (used, expired, another client or a wrong proof)',
  // auth-methods: the code every other sign-in ends with
  'authorization_code.exchange.failed':
    'An authorization code exchange was refused (used, expired, another client or a wrong proof)',
  // auth-methods: TOTP
  'totp_connection.updated': 'A TOTP connection was updated',
  'totp.enrollment.created': 'A user started a TOTP enrollment',
  'totp.enrollment.validated': 'A TOTP enrollment was validated',
  'totp.challenge.created': 'A TOTP challenge was created',
  'totp.challenge.succeeded': 'A TOTP code was accepted',
  'totp.challenge.failed': 'A TOTP code was refused',
  // auth-methods: SSO
  'sso_connection.created': 'An SSO connection was created',
  'sso_connection.updated': 'An SSO connection was updated',
  'sso.login.succeeded': 'A user signed in with SSO',
  'sso.login.failed': 'An SSO sign-in failed',
  // auth-methods: relays
  'relay.created': 'A relay was created',
  'relay.updated': 'A relay was updated',
  'relay.deleted': 'A relay was deleted',
  'relay.request.created': 'A user was relayed to a partner application',
  // directory-sync (the codes of `directorySyncWebhookCodes`)
  'directory_sync.created': 'A directory sync was created',
  'directory_sync.updated': 'A directory sync was updated',
  'directory_sync.token_rotated': "A directory sync's SCIM token was rotated",
  'directory_sync.attributes_mapping.updated': 'The attributes mapping of an environment changed',
  'directory_sync.user.provisioning.success': 'A user was provisioned by directory sync',
  'directory_sync.user.provisioning.failure': 'A user could not be provisioned by directory sync',
  'directory_sync.user.update.success': 'A user was updated by directory sync',
  'directory_sync.user.deactivation.success': 'A user was deactivated by directory sync',
  'directory_sync.user.deletion.success': 'A user was deprovisioned by directory sync',
  'directory_sync.group.creation.success': 'A group was provisioned by directory sync',
  'directory_sync.group.update.success': 'A group was updated by directory sync',
  'directory_sync.group.deletion.success': 'A group was deprovisioned by directory sync',
} as const satisfies Record<string, string>;

export type WebhookEventCode = keyof typeof webhookEventCatalogue;
export const webhookEventCodes = Object.keys(webhookEventCatalogue) as WebhookEventCode[];

export const isWebhookEventCode = (code: string): code is WebhookEventCode => Object.hasOwn(webhookEventCatalogue, code);
