import { directorySyncWebhookCodes, webhookEventCatalogue } from '@sesame/contracts';
import type { Environment, ServiceName, WebhookEventCode } from '@sesame/contracts';
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

const identityCodes: Record<string, WebhookEventCode> = {
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

const authMethodsCodes: Record<string, WebhookEventCode> = {
  SsoConnectionCreated: 'sso_connection.created',
  SsoConnectionUpdated: 'sso_connection.updated',
};

/** Event data fields that are internal (secrets, their hashes, bookkeeping) and never published. */
const privateFields = new Set(['invitation_hash', 'profile_owners', 'sp_key', 'environment', 'at']);

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

/** Events whose data carries the organization and environment (or whose stream names the organization). */
const tableMapper =
  (codes: Record<string, WebhookEventCode>) =>
  (event: RecordedEvent): PublicEvent | null => {
    const code = codes[event.type];
    if (!code) return null;
    const data = event.data as Data;
    const organizationDomain = event.stream.startsWith('organization-') ? event.stream.slice('organization-'.length) : null;
    const domain = (data.organization_domain as string | undefined) ?? organizationDomain;
    return envelope(event, code, publicData(data), domain, data.environment ?? event.metadata.environment);
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
