import { directorySyncWebhookCodes, webhookEventCatalogue } from '@sesame/contracts';
import type {
  AdminEvent,
  Environment,
  GroupEvent,
  MagicLinkConnectionEvent,
  OrganizationEvent,
  PasswordAttemptEvent,
  PasswordCodeEvent,
  PasswordConnectionEvent,
  PasswordEvent,
  RedirectUriEvent,
  ServiceName,
  SsoConnectionEvent,
  TotpConnectionEvent,
  TotpEnrollmentEvent,
  UserEvent,
  UserMetakeyEvent,
  WebhookEventCode,
} from '@sesame/contracts';
import type { RecordedEvent } from '@sesame/platform';

/** An event of the product as webhooks publish it, before it is addressed to a webhook. */
export interface PublicEvent {
  id: string;
  code: WebhookEventCode;
  data: unknown;
  domain: string | null;
  environment: Environment;
  issued_at: string;
  client_id: string | null;
  description: string;
}

type IdentityEventType = (OrganizationEvent | UserEvent | AdminEvent | GroupEvent | UserMetakeyEvent | RedirectUriEvent)['type'];

/** Every public identity event has its code: a new event type does not compile until it is mapped here. */
const identityCodes: Record<IdentityEventType, WebhookEventCode> = {
  OrganizationCreated: 'organization.created',
  OrganizationUpdated: 'organization.updated',
  OrganizationDeleted: 'organization.deleted',
  UserCreated: 'user.created',
  UserUpdated: 'user.updated',
  UserDeactivated: 'user.deactivated',
  UserIdentityRecorded: 'user.identity_recorded',
  UserDeleted: 'user.deleted',
  AdminInvited: 'admin.invited',
  AdminInvitationAccepted: 'admin.invitation_accepted',
  AdminInvitationDeclined: 'admin.invitation_declined',
  AdminLoggedIn: 'admin.logged_in',
  AdminRemoved: 'admin.deleted',
  RedirectUriAdded: 'redirect_uri.created',
  DefaultRedirectUriChanged: 'redirect_uri.default_changed',
  RedirectUriRemoved: 'redirect_uri.deleted',
  UserMetakeyCreated: 'user_metakey.created',
  UserMetakeyDeletionStarted: 'user_metakey.deletion_started',
  UserMetakeyDeleted: 'user_metakey.deleted',
  GroupCreated: 'group.created',
  GroupRenamed: 'group.updated',
  GroupMembersAdded: 'group.members_added',
  GroupMembersRemoved: 'group.members_removed',
  GroupDeleted: 'group.deleted',
};

type AuthMethodsEventType = (
  | SsoConnectionEvent
  | PasswordConnectionEvent
  | PasswordEvent
  | PasswordAttemptEvent
  | PasswordCodeEvent
  | MagicLinkConnectionEvent
  | TotpConnectionEvent
  | TotpEnrollmentEvent
)['type'];

/** Public auth-methods events and their codes; null: internal, not published. */
const authMethodsCodes: Record<AuthMethodsEventType, WebhookEventCode | null> = {
  SsoConnectionCreated: 'sso_connection.created',
  SsoConnectionUpdated: 'sso_connection.updated',
  PasswordConnectionCreated: 'password_connection.created',
  PasswordConnectionUpdated: 'password_connection.updated',
  PasswordSet: 'password.created',
  PasswordRehashed: null,
  PasswordChallengeSucceeded: 'password.challenge.succeeded',
  PasswordChallengeFailed: 'password.challenge.failed',
  PasswordCodeIssued: 'password.request.created',
  PasswordCodeUsed: null,
  MagicLinkConnectionCreated: 'magic_link_connection.created',
  MagicLinkConnectionUpdated: 'magic_link_connection.updated',
  TotpConnectionUpdated: 'totp_connection.updated',
  TotpEnrolled: 'totp.enrollment.created',
  TotpEnrollmentValidated: 'totp.enrollment.validated',
  TotpChallengeCreated: 'totp.challenge.created',
  TotpChallengeSucceeded: 'totp.challenge.succeeded',
  TotpCodeRejected: 'totp.challenge.failed',
};

/** Event data fields that are internal (secrets, their hashes, bookkeeping) and never published. */
const privateFields = new Set([
  'invitation_hash',
  'profile_owners',
  'sp_key',
  'hash',
  'pepper_kid',
  'pepper_epoch',
  'code_hash',
  'encrypted_secret',
  'recovery_code_hashes',
  'recovery_code_hash',
  'first_counter',
  'counter',
  'step',
  'environment',
  'at',
]);

type Data = Record<string, unknown>;
const publicData = (data: Data): Data => Object.fromEntries(Object.entries(data).filter(([key]) => !privateFields.has(key)));

function envelope(event: RecordedEvent, code: WebhookEventCode, data: unknown, domain: string | null, environment: unknown) {
  if (environment !== 'sandbox' && environment !== 'production') return null;
  return {
    id: event.id,
    code,
    data,
    domain,
    environment,
    issued_at: event.metadata.occurredAt,
    client_id: event.metadata.actor ?? null,
    description: webhookEventCatalogue[code],
  } satisfies PublicEvent;
}

/**
 * What a stream id says of the event's tenant: `organization-<domain>`, or ids that start with
 * `<environment>:<domain>` (`passwordConnection-sandbox:acme`, `passwordAttempts-sandbox:acme:<email>`).
 */
const tenantStreams = new Set(['passwordConnection', 'passwordAttempts']);

function streamTenant(stream: string): { domain?: string; environment?: string; email?: string } {
  if (stream.startsWith('organization-')) return { domain: stream.slice('organization-'.length) };
  const dash = stream.indexOf('-');
  if (!tenantStreams.has(stream.slice(0, dash))) return {};
  const [environment, domain, email] = stream.slice(dash + 1).split(':');
  if (environment !== 'sandbox' && environment !== 'production') return {};
  return { environment, domain, ...(stream.startsWith('passwordAttempts-') && email ? { email } : {}) };
}

/** Events whose data, stream or metadata carry the organization and environment. */
const tableMapper =
  (codes: Partial<Record<string, WebhookEventCode | null>>) =>
  (event: RecordedEvent): PublicEvent | null => {
    const code = codes[event.type];
    if (!code) return null;
    const tenant = streamTenant(event.stream);
    const data: Data = { ...(tenant.email ? { email: tenant.email } : {}), ...(event.data as Data) };
    const domain = (data.organization_domain as string | undefined) ?? tenant.domain ?? null;
    return envelope(event, code, publicData(data), domain, data.environment ?? tenant.environment ?? event.metadata.environment);
  };

function mapDirectorySyncEvent(event: RecordedEvent): PublicEvent | null {
  const code = (directorySyncWebhookCodes as Record<string, WebhookEventCode>)[event.type];
  if (!code) return null;
  const data = event.data as Data & { event?: unknown; directory_sync?: Data };
  const domain = (data.directory_sync?.organization_domain ?? data.organization_domain ?? null) as string | null;
  const environment = data.directory_sync?.environment ?? data.environment ?? event.metadata.environment;
  return envelope(event, code, data.event ?? publicData(data), domain, environment);
}

/** The services whose events webhooks publish, and how each event type maps to a catalogue code. */
export const eventSources: { source: ServiceName; map: (event: RecordedEvent) => PublicEvent | null }[] = [
  { source: 'identity', map: tableMapper(identityCodes) },
  { source: 'auth-methods', map: tableMapper(authMethodsCodes) },
  { source: 'directory-sync', map: mapDirectorySyncEvent },
];
