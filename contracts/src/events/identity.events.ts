import type { Environment } from '../common/environment.schema';
import type { Tenant } from './tenant';
import type { Admin, OnboardingSetup } from '../entities/admin.schema';
import type { Identity, User } from '../entities/user.schema';
import type { UserMetakey } from '../entities/misc.schema';

/**
 * Events of the identity service (besides organizations), as other services read them with
 * `subscribeToServiceEvents({ source: 'identity' })`. Every user, admin and group event carries
 * the organization (domain and id), the environment and the resource as the API shows it after
 * the change, so that a consumer (webhooks, directory sync) needs no lookup.
 */
export type TenantEventData = Tenant & { at: string };

/** Profile attribute → provider (`saml.okta`) that refreshes it at each sign-in, so it is not editable. */
export type ProfileOwners = Partial<Record<string, string>>;

export type UserSource = 'api' | 'sso' | 'scim' | 'magic_link' | 'password' | 'relay';
export type UserDeletionReason = 'api' | 'scim' | 'organization_deleted';

export interface UserChangeData extends TenantEventData {
  user: User;
  /** New values of the fields that changed (`profile`/`address`/`metadata` whole). */
  changes: Record<string, unknown>;
  previous_values: Record<string, unknown>;
}

export type UserEvent =
  | { type: 'UserCreated'; data: TenantEventData & { user: User; source: UserSource; profile_owners: ProfileOwners } }
  | { type: 'UserUpdated'; data: UserChangeData }
  | { type: 'UserDeactivated'; data: UserChangeData }
  | {
      type: 'UserIdentityRecorded';
      data: UserChangeData & { identity: Identity; profile_owners: ProfileOwners };
    }
  | { type: 'UserDeleted'; data: TenantEventData & { user: User; reason: UserDeletionReason } }
  /**
   * A privacy request: the user's personal data is pseudonymised in the events feed (never in this
   * event: it names the user by id, and by keyed hashes of the user's normalised email).
   */
  | { type: 'UserErased'; data: TenantEventData & UserErasure };

export interface UserErasure {
  user_id: string;
  /** Replaces the user's personal values in the feed (`<pseudonym>@erased.invalid` where an email was). */
  pseudonym: string;
  /** `erasureEmailHash(user_id, email)` of the user's email: finds events naming the user only by email. */
  email_hashes: string[];
}

export type AdminEvent =
  | {
      type: 'AdminInvited';
      data: TenantEventData & {
        admin: Admin;
        /** SHA-256 of the invitation token; the token itself is only in the email. */
        invitation_hash: string;
        invitation_expires_at: string;
        /** What the invitation lets the admin set up; absent (invitations before it existed): `['sso']`. */
        allowed_setups?: OnboardingSetup[];
      };
    }
  | { type: 'AdminInvitationAccepted'; data: TenantEventData & { admin: Admin } }
  | { type: 'AdminInvitationDeclined'; data: TenantEventData & { admin: Admin } }
  /** The emailed link was opened: it is used up (single use) and opens the session that follows. */
  | { type: 'AdminInvitationLinkExchanged'; data: TenantEventData & { admin: Admin } }
  /** The vendor revoked a link not opened yet. */
  | { type: 'AdminInvitationLinkRevoked'; data: TenantEventData & { admin: Admin } }
  | { type: 'AdminOnboardingSessionOpened'; data: TenantEventData & { admin: Admin; session: OnboardingSessionData } }
  /** The session was used: it now ends without activity at `idle_expires_at` (never after its `expires_at`). */
  | {
      type: 'AdminOnboardingSessionExtended';
      data: TenantEventData & { admin: Admin; session_id: string; idle_expires_at: string };
    }
  | {
      type: 'AdminOnboardingSessionEnded';
      data: TenantEventData & { admin: Admin; session_id: string; reason: OnboardingSessionEndReason };
    }
  | { type: 'AdminLoggedIn'; data: TenantEventData & { admin: Admin } }
  | { type: 'AdminRemoved'; data: TenantEventData & { admin: Admin; reason: 'api' | 'organization_deleted' } };

/**
 * The onboarding session an invitation link opens in the browser that opened it. Its secret is
 * only in that browser's cookie; `session_hash` is its SHA-256.
 */
export interface OnboardingSessionData {
  id: string;
  session_hash: string;
  opened_at: string;
  /** Ends without activity at this time; each use pushes it back, up to `expires_at`. */
  idle_expires_at: string;
  /** Ends at this time whatever the activity. */
  expires_at: string;
}

/**
 * Why a session ended before its time: the set-up was finished (`accepted`), the invitation
 * `declined`, the vendor revoked it, invited the admin again or removed them.
 */
export type OnboardingSessionEndReason = 'accepted' | 'declined' | 'revoked' | 'reinvited' | 'removed';

export interface GroupData {
  id: string;
  display_name: string;
  members: string[];
  inserted_at: string;
  updated_at: string;
}

export type GroupEvent =
  | { type: 'GroupCreated'; data: TenantEventData & { group: GroupData } }
  | { type: 'GroupRenamed'; data: TenantEventData & { group: GroupData; previous_display_name: string } }
  | { type: 'GroupMembersAdded'; data: TenantEventData & { group: GroupData; members: string[] } }
  | { type: 'GroupMembersRemoved'; data: TenantEventData & { group: GroupData; members: string[] } }
  | { type: 'GroupDeleted'; data: TenantEventData & { group: GroupData; reason: 'api' | 'organization_deleted' } };

export type UserMetakeyEvent =
  | { type: 'UserMetakeyCreated'; data: { environment: Environment; metakey: UserMetakey; at: string } }
  /** The key is locked: its values are being removed from every user of the environment. */
  | { type: 'UserMetakeyDeletionStarted'; data: { environment: Environment; name: string; at: string } }
  | { type: 'UserMetakeyDeleted'; data: { environment: Environment; name: string; users_cleaned: number; at: string } };

export interface RedirectUriData {
  id: string;
  url: string;
  inserted_at: string;
}

export type RedirectUriEvent =
  | { type: 'RedirectUriAdded'; data: { environment: Environment; redirect_uri: RedirectUriData; default: boolean } }
  | { type: 'DefaultRedirectUriChanged'; data: { environment: Environment; id: string; previous_id: string | null; at: string } }
  | { type: 'RedirectUriRemoved'; data: { environment: Environment; id: string; url: string; at: string } };
