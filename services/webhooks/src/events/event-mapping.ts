import { directorySyncWebhookCodes, webhookEventCatalogue } from '@sesame/contracts';
import type {
  AdminEvent,
  AuthorizationCodeEvent,
  CodeExchangeFailureEvent,
  Environment,
  GroupEvent,
  MagicLinkConnectionEvent,
  OrganizationEvent,
  PasswordAttemptEvent,
  PasswordCodeEvent,
  PasswordConnectionEvent,
  PasswordEvent,
  RedirectUriEvent,
  RefreshTokenFamilyEvent,
  RelayCodeEvent,
  RelayEvent,
  ServiceName,
  SsoChallengeEvent,
  SsoConnectionEvent,
  TotpConnectionEvent,
  TotpEnrollmentEvent,
  UserEvent,
  UserMetakeyEvent,
  WebhookEventCode,
} from '@sesame/contracts';
import type { RecordedEvent } from '@sesame/platform';
import { actorOf } from '@sesame/platform';
import { publicPayload } from './public-payload';
import type { PublicPayload } from './public-payload';

/** An event of the product as webhooks publish it, before it is addressed to a webhook. */
export interface PublicEvent {
  id: string;
  code: WebhookEventCode;
  /** The payload of `code` (its schema in the contracts), or a test event's `{ test: true }`. */
  data: PublicPayload;
  domain: string | null;
  environment: Environment;
  issued_at: string;
  client_id: string | null;
  description: string;
}

type Data = Record<string, unknown>;

/**
 * The code of an event type: one code, null (internal, never published), or a code chosen by the
 * event's data among `codes` (null: this occurrence is not public).
 */
type CodeRule = WebhookEventCode | null | { codes: readonly WebhookEventCode[]; of(data: Data): WebhookEventCode | null };

type IdentityEventType = (OrganizationEvent | UserEvent | AdminEvent | GroupEvent | UserMetakeyEvent | RedirectUriEvent)['type'];

/** Every public identity event has its code: a new event type does not compile until it is mapped here. */
const identityCodes: Record<IdentityEventType, CodeRule> = {
  OrganizationCreated: 'organization.created',
  OrganizationUpdated: 'organization.updated',
  OrganizationDeleted: 'organization.deleted',
  // A service took the organization in: its status, not a change of the organization.
  OrganizationProvisioningConfirmed: null,
  DomainVerificationStarted: 'organization.domain.verification_started',
  DomainVerified: 'organization.domain.verified',
  DomainVerificationFailed: 'organization.domain.verification_failed',
  UserCreated: 'user.created',
  UserUpdated: 'user.updated',
  UserDeactivated: 'user.deactivated',
  UserIdentityRecorded: 'user.identity_recorded',
  UserDeleted: 'user.deleted',
  UserErased: 'user.erased',
  AdminInvited: 'admin.invited',
  AdminInvitationAccepted: 'admin.invitation_accepted',
  AdminInvitationDeclined: 'admin.invitation_declined',
  AdminInvitationLinkExchanged: null,
  AdminInvitationLinkRevoked: null,
  AdminOnboardingSessionOpened: null,
  AdminOnboardingSessionExtended: null,
  AdminOnboardingSessionEnded: null,
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
  | SsoChallengeEvent
  | PasswordConnectionEvent
  | PasswordEvent
  | PasswordAttemptEvent
  | PasswordCodeEvent
  | MagicLinkConnectionEvent
  | TotpConnectionEvent
  | TotpEnrollmentEvent
  | RelayEvent
  | RelayCodeEvent
  | AuthorizationCodeEvent
  | CodeExchangeFailureEvent
  | RefreshTokenFamilyEvent
)['type'];

/** Only the sign-ins of one method, published under `code`. */
const signInsBy = (method: string, code: WebhookEventCode): CodeRule => ({
  codes: [code],
  of: (data) => (data.method === method ? code : null),
});

/** A real sign-in (not the onboarding page's test of the connection), published under `code`. */
const realSignIn = (code: WebhookEventCode): CodeRule => ({ codes: [code], of: (data) => (data.test === true ? null : code) });

/** Public auth-methods events and their codes; null: internal, not published. */
const authMethodsCodes: Record<AuthMethodsEventType, CodeRule> = {
  SsoConnectionCreated: 'sso_connection.created',
  SsoConnectionUpdated: 'sso_connection.updated',
  SsoChallengeIssued: null,
  SsoChallengeCompleted: realSignIn('sso.login.succeeded'),
  SsoChallengeFailed: realSignIn('sso.login.failed'),
  SsoLogoutRequested: null,
  SsoSessionEnded: null,
  SsoConnectionDeleted: null,
  PasswordConnectionCreated: 'password_connection.created',
  PasswordConnectionUpdated: 'password_connection.updated',
  PasswordConnectionDeleted: null,
  PasswordSet: {
    codes: ['password.created', 'password.updated'],
    of: (data) => (data.previous_password_id ? 'password.updated' : 'password.created'),
  },
  PasswordRehashed: null,
  PasswordChallengeSucceeded: 'password.challenge.succeeded',
  PasswordChallengeFailed: 'password.challenge.failed',
  PasswordCodeIssued: 'password.request.created',
  PasswordCodeUsed: null,
  MagicLinkConnectionCreated: 'magic_link_connection.created',
  MagicLinkConnectionUpdated: 'magic_link_connection.updated',
  MagicLinkConnectionDeleted: null,
  AuthorizationCodeIssued: signInsBy('magic_link', 'magic_link.challenge.created'),
  // Redeemed once per code (the append expects the revision it read); a family can also be opened
  // by an exchange that then loses that race, so the family is not the sign-in's event of record.
  AuthorizationCodeRedeemed: signInsBy('magic_link', 'magic_link.challenge.succeeded'),
  // A magic link's code refused at its exchange is the magic link refused; other methods' codes under their own code.
  AuthorizationCodeExchangeFailed: {
    codes: ['magic_link.challenge.failed', 'authorization_code.exchange.failed'],
    of: (data) => (data.method === 'magic_link' ? 'magic_link.challenge.failed' : 'authorization_code.exchange.failed'),
  },
  RefreshTokenFamilyStarted: null,
  RefreshTokenRotated: null,
  RefreshTokenFamilyRevoked: null,
  TotpConnectionUpdated: 'totp_connection.updated',
  TotpConnectionDeleted: null,
  TotpEnrolled: 'totp.enrollment.created',
  TotpEnrollmentValidated: 'totp.enrollment.validated',
  TotpChallengeCreated: 'totp.challenge.created',
  TotpChallengeSucceeded: 'totp.challenge.succeeded',
  TotpCodeRejected: 'totp.challenge.failed',
  RelayCreated: 'relay.created',
  RelayUpdated: 'relay.updated',
  RelayDeleted: 'relay.deleted',
  RelayCodeIssued: 'relay.request.created',
  RelayCodeRedeemed: null,
};

/** The public event of `code`: its payload is built from `data` by allow-list and parsed with the code's schema. */
/** The API key that caused an event, as webhooks have always named it (`client_id`). */
function apiKeyOf(metadata: RecordedEvent['metadata']): string | null {
  const actor = actorOf(metadata);
  return actor?.type === 'api_key' ? actor.id : null;
}

function envelope(event: RecordedEvent, code: WebhookEventCode, data: Data, domain: unknown, environment: unknown) {
  if (environment !== 'sandbox' && environment !== 'production') return null;
  return {
    id: event.id,
    code,
    data: publicPayload(code, data),
    domain: typeof domain === 'string' ? domain : null,
    environment,
    issued_at: event.metadata.occurredAt,
    client_id: apiKeyOf(event.metadata),
    description: webhookEventCatalogue[code],
  } satisfies PublicEvent;
}

/**
 * What a stream id says of the event's tenant: ids that start with `<environment>:<domain>`
 * (`organization-sandbox:acme`, `passwordAttempts-sandbox:acme:<email>`, and
 * `passwordConnection-sandbox:acme` for a connection recorded before connections were keyed by
 * their organization's id; the events of the id-keyed ones name their domain in their data, which wins).
 */
const tenantStreams = new Set(['organization', 'passwordConnection', 'passwordAttempts']);

function streamTenant(stream: string): { domain?: string; environment?: string; email?: string } {
  const dash = stream.indexOf('-');
  if (!tenantStreams.has(stream.slice(0, dash))) return {};
  const [environment, domain, email] = stream.slice(dash + 1).split(':');
  if (environment !== 'sandbox' && environment !== 'production') return {};
  return { environment, domain, ...(stream.startsWith('passwordAttempts-') && email ? { email } : {}) };
}

/** The organization of a relay and of its requests is the partner organization users are relayed into. */
const relayOf = (data: Data): Data => (data.relay as Data | undefined) ?? {};

const codeOf = (rule: CodeRule | undefined, data: Data): WebhookEventCode | null =>
  !rule || typeof rule === 'string' ? (rule ?? null) : rule.of(data);

/** Events whose data, stream or metadata carry the organization and environment. */
const tableMapper =
  (codes: Partial<Record<string, CodeRule>>) =>
  (event: RecordedEvent): PublicEvent | null => {
    const tenant = streamTenant(event.stream);
    const data: Data = { ...(tenant.email ? { email: tenant.email } : {}), ...(event.data as Data) };
    const code = codeOf(codes[event.type], data);
    if (!code) return null;
    const domain = data.organization_domain ?? relayOf(data).partner_domain ?? data.partner_domain ?? tenant.domain;
    const environment = data.environment ?? relayOf(data).environment ?? tenant.environment ?? event.metadata.environment;
    return envelope(event, code, data, domain, environment);
  };

/** Directory syncs and SCIM changes carry their directory sync (or SCIM resource) and their ready `EventData`. */
function mapDirectorySyncEvent(event: RecordedEvent): PublicEvent | null {
  const code = (directorySyncWebhookCodes as Record<string, WebhookEventCode>)[event.type];
  if (!code) return null;
  const data = event.data as Data & { directory_sync?: Data; scim_resource?: Data };
  const owner = data.directory_sync ?? data.scim_resource ?? data;
  return envelope(event, code, data, owner.organization_domain, owner.environment ?? event.metadata.environment);
}

/** The services whose events webhooks publish, and how each event type maps to a catalogue code. */
export const eventSources: { source: ServiceName; map: (event: RecordedEvent) => PublicEvent | null }[] = [
  { source: 'identity', map: tableMapper(identityCodes) },
  { source: 'auth-methods', map: tableMapper(authMethodsCodes) },
  { source: 'directory-sync', map: mapDirectorySyncEvent },
];

const rulesCodes = (rules: Record<string, CodeRule>): WebhookEventCode[] =>
  Object.values(rules).flatMap((rule) => (rule === null ? [] : typeof rule === 'string' ? [rule] : rule.codes));

/** Every code some product event is published under: the catalogue must hold nothing else. */
export const publishedCodes: ReadonlySet<WebhookEventCode> = new Set([
  ...rulesCodes(identityCodes),
  ...rulesCodes(authMethodsCodes),
  ...Object.values(directorySyncWebhookCodes),
]);
