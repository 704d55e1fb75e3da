import {
  adminInvitationMessages,
  catalogueError,
  defaultOnboardingSetups,
  fieldError,
  onboardingSessionMessages,
} from '@sesame/contracts';
import type { Admin, AdminEvent, OnboardingSessionEndReason, OnboardingSetup } from '@sesame/contracts';
import { fail, safeEqual } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import type { Tenant } from '../../users/domain/user.decider';

/** The onboarding session an invitation link opened; only the hash of its secret is kept. */
export interface OnboardingSession {
  id: string;
  hash: string;
  opened_at: string;
  idle_expires_at: string;
  expires_at: string;
}

export interface AdminRecord extends Admin {
  organization_id: string;
  /** `<organization id>:<environment>` */
  scope: string;
  /** SHA-256 of the secret of the emailed link, and until when it may be opened. */
  invitation_hash: string;
  invitation_expires_at: string;
  /** The link works once: `exchanged` once opened, `revoked` when the vendor voided it before. */
  link_state: 'unused' | 'exchanged' | 'revoked';
  session: OnboardingSession | null;
  /** What the current invitation lets the admin set up on the onboarding page. */
  allowed_setups: OnboardingSetup[];
}

export type AdminState = { status: 'empty' } | ({ status: 'active' | 'removed' } & AdminRecord);
export type StoredAdmin = Exclude<AdminState, { status: 'empty' }>;

/** How long links and sessions last (configuration, passed with each command so that decide stays pure). */
export interface OnboardingTimes {
  /** An emailed link may be opened for this long after the invitation. */
  link_ttl_ms: number;
  /** A session ends after this long without a call... */
  session_idle_ms: number;
  /** ...and this long after it opened, whatever the activity. */
  session_max_ms: number;
}

export type AdminCommand =
  | {
      type: 'InviteAdmin';
      data: {
        tenant: Tenant;
        id: string;
        email: string;
        color: string;
        invitation_hash: string;
        expires_at: string;
        allowed_setups: OnboardingSetup[];
        at: string;
      };
    }
  | {
      type: 'OpenInvitationLink';
      data: { invitation_hash: string; session: { id: string; hash: string }; times: OnboardingTimes; at: string };
    }
  /** `setup`: what the call sets up, refused unless the invitation allows it. */
  | { type: 'UseOnboardingSession'; data: { session_hash: string; setup?: OnboardingSetup; times: OnboardingTimes; at: string } }
  | { type: 'AnswerInvitation'; data: { answer: 'accept' | 'decline'; session_id: string; at: string } }
  | { type: 'RevokeOnboarding'; data: { tenant: Tenant; at: string } }
  | { type: 'RecordAdminLogin'; data: { tenant: Tenant; at: string } }
  | { type: 'RemoveAdmin'; data: { tenant: Tenant; reason: 'api' | 'organization_deleted'; at: string } };

const tenantData = (tenant: Pick<Tenant, 'organization_domain' | 'organization_id' | 'environment'>, at: string) => ({
  organization_domain: tenant.organization_domain,
  organization_id: tenant.organization_id,
  environment: tenant.environment,
  at,
});

export const adminTenant = (admin: StoredAdmin): Tenant => ({
  organization_id: admin.organization_id,
  organization_domain: admin.__domain__,
  allowed_email_domains: [],
  environment: admin.__environment__,
});

export function toAdmin(state: AdminRecord): Admin {
  return {
    __type__: 'Admin',
    __domain__: state.__domain__,
    __environment__: state.__environment__,
    id: state.id,
    email: state.email,
    organization: state.organization,
    color: state.color,
    invited_at: state.invited_at,
    accepted_invitation_at: state.accepted_invitation_at,
    declined_to_be_in_charge_at: state.declined_to_be_in_charge_at,
    last_login_at: state.last_login_at,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const sessionEnd = (session: OnboardingSession) => Math.min(Date.parse(session.idle_expires_at), Date.parse(session.expires_at));
/** Sliding expiry is written at most this often (an event), so a busy page does not write at every call. */
export const extensionStep = (idleMs: number) => Math.min(60_000, idleMs / 10);

/**
 * When the emailed link stops working: its stored expiry, and never later than the configured
 * lifetime after the invitation (links emailed under a longer lifetime expire by the current one).
 */
export function linkExpiry(state: AdminRecord, linkTtlMs: number): number {
  const stored = Date.parse(state.invitation_expires_at);
  return state.invited_at ? Math.min(stored, Date.parse(state.invited_at) + linkTtlMs) : stored;
}

/** The session of a live admin that has not expired at `at`, if any. */
function liveSession(state: AdminState, at: string): OnboardingSession | null {
  if (state.status !== 'active' || !state.session) return null;
  return sessionEnd(state.session) > Date.parse(at) ? state.session : null;
}

function requireAdmin(state: AdminState, tenant: Tenant): StoredAdmin {
  if (state.status !== 'active' || state.organization_id !== tenant.organization_id) fail(catalogueError('resource_not_found'));
  return state;
}

/** The session a call carries (by its hash or id), or 401 `onboarding_session_required`. */
function requireSession(state: AdminState, matches: (session: OnboardingSession) => boolean, at: string) {
  const session = state.status === 'active' ? state.session : null;
  if (state.status !== 'active' || !session || !matches(session))
    fail(catalogueError('onboarding_session_required', onboardingSessionMessages.ended));
  if (sessionEnd(session) <= Date.parse(at))
    fail(catalogueError('onboarding_session_required', onboardingSessionMessages.expired));
  return { admin: state, session };
}

function sessionEnded(
  admin: StoredAdmin,
  session: OnboardingSession,
  reason: OnboardingSessionEndReason,
  at: string,
): AdminEvent {
  return {
    type: 'AdminOnboardingSessionEnded',
    data: { ...tenantData(adminTenant(admin), at), admin: toAdmin(admin), session_id: session.id, reason },
  };
}

/** A new invitation replaces the link and ends the session of the previous one. */
function invite(command: Extract<AdminCommand, { type: 'InviteAdmin' }>, state: AdminState): AdminEvent[] {
  const { tenant, id, email, color, invitation_hash, expires_at, allowed_setups, at } = command.data;
  const current = state.status === 'active' && state.organization_id === tenant.organization_id ? state : undefined;
  const admin: Admin = {
    __type__: 'Admin',
    __domain__: tenant.organization_domain,
    __environment__: tenant.environment,
    id: current?.id ?? id,
    email: current?.email ?? email,
    organization: tenant.organization_domain,
    color: current?.color ?? color,
    invited_at: at,
    accepted_invitation_at: current?.accepted_invitation_at ?? null,
    declined_to_be_in_charge_at: null,
    last_login_at: current?.last_login_at ?? null,
  };
  const session = current ? liveSession(current, at) : null;
  return [
    ...(current && session ? [sessionEnded(current, session, 'reinvited', at)] : []),
    {
      type: 'AdminInvited',
      data: { ...tenantData(tenant, at), admin, invitation_hash, invitation_expires_at: expires_at, allowed_setups },
    },
  ];
}

/** The emailed link, opened once and in time, is used up and opens a session in that browser. */
function openLink(command: Extract<AdminCommand, { type: 'OpenInvitationLink' }>, state: AdminState): AdminEvent[] {
  const { invitation_hash, session, times, at } = command.data;
  if (state.status !== 'active' || !safeEqual(state.invitation_hash, invitation_hash))
    fail(fieldError('token', adminInvitationMessages.invalid));
  if (state.declined_to_be_in_charge_at) fail(fieldError('token', adminInvitationMessages.declined));
  if (state.link_state === 'exchanged') fail(fieldError('token', adminInvitationMessages.used));
  if (state.link_state === 'revoked') fail(fieldError('token', adminInvitationMessages.revoked));
  if (linkExpiry(state, times.link_ttl_ms) <= Date.parse(at)) fail(fieldError('token', adminInvitationMessages.expired));
  const now = Date.parse(at);
  const data = { ...tenantData(adminTenant(state), at), admin: { ...toAdmin(state), last_login_at: at } };
  return [
    { type: 'AdminInvitationLinkExchanged', data },
    {
      type: 'AdminOnboardingSessionOpened',
      data: {
        ...data,
        session: {
          id: session.id,
          session_hash: session.hash,
          opened_at: at,
          idle_expires_at: iso(now + Math.min(times.session_idle_ms, times.session_max_ms)),
          expires_at: iso(now + times.session_max_ms),
        },
      },
    },
    { type: 'AdminLoggedIn', data },
  ];
}

/**
 * A call with the session: refused once ended or expired, or when it sets up what the invitation
 * does not allow; else pushes back its idle expiry (now and then).
 */
function useSession(command: Extract<AdminCommand, { type: 'UseOnboardingSession' }>, state: AdminState): AdminEvent[] {
  const { session_hash, setup, times, at } = command.data;
  const { admin, session } = requireSession(state, (candidate) => safeEqual(candidate.hash, session_hash), at);
  if (setup && !admin.allowed_setups.includes(setup)) fail(catalogueError('onboarding_setup_not_allowed'));
  const idleExpiry = Math.min(Date.parse(at) + times.session_idle_ms, Date.parse(session.expires_at));
  if (idleExpiry - Date.parse(session.idle_expires_at) < extensionStep(times.session_idle_ms)) return [];
  return [
    {
      type: 'AdminOnboardingSessionExtended',
      data: {
        ...tenantData(adminTenant(admin), at),
        admin: toAdmin(admin),
        session_id: session.id,
        idle_expires_at: iso(idleExpiry),
      },
    },
  ];
}

/** Accepting finishes the set-up, declining hands it back: either ends the session. */
function answer(command: Extract<AdminCommand, { type: 'AnswerInvitation' }>, state: AdminState): AdminEvent[] {
  const { session_id, at } = command.data;
  const { admin: current, session } = requireSession(state, (candidate) => candidate.id === session_id, at);
  const accepted = command.data.answer === 'accept';
  const admin: Admin = {
    ...toAdmin(current),
    accepted_invitation_at: accepted ? at : null,
    declined_to_be_in_charge_at: accepted ? null : at,
  };
  const data = { ...tenantData(adminTenant(current), at), admin };
  return [
    accepted ? { type: 'AdminInvitationAccepted', data } : { type: 'AdminInvitationDeclined', data },
    {
      type: 'AdminOnboardingSessionEnded',
      data: { ...data, session_id: session.id, reason: accepted ? 'accepted' : 'declined' },
    },
  ];
}

/** The vendor ends the session and voids a link not opened yet; nothing to revoke changes nothing. */
function revoke(command: Extract<AdminCommand, { type: 'RevokeOnboarding' }>, state: AdminState): AdminEvent[] {
  const { tenant, at } = command.data;
  const admin = requireAdmin(state, tenant);
  const session = liveSession(admin, at);
  const linkOpen = admin.link_state === 'unused' && Date.parse(admin.invitation_expires_at) > Date.parse(at);
  return [
    ...(session ? [sessionEnded(admin, session, 'revoked', at)] : []),
    ...(linkOpen
      ? [{ type: 'AdminInvitationLinkRevoked' as const, data: { ...tenantData(tenant, at), admin: toAdmin(admin) } }]
      : []),
  ];
}

function remove(command: Extract<AdminCommand, { type: 'RemoveAdmin' }>, state: AdminState): AdminEvent[] {
  const { tenant, reason, at } = command.data;
  const admin = requireAdmin(state, tenant);
  const session = liveSession(admin, at);
  return [
    ...(session ? [sessionEnded(admin, session, 'removed', at)] : []),
    { type: 'AdminRemoved', data: { ...tenantData(tenant, at), admin: toAdmin(admin), reason } },
  ];
}

export const adminDecider: Decider<AdminState, AdminCommand, AdminEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'InviteAdmin':
        return invite(command, state);
      case 'OpenInvitationLink':
        return openLink(command, state);
      case 'UseOnboardingSession':
        return useSession(command, state);
      case 'AnswerInvitation':
        return answer(command, state);
      case 'RevokeOnboarding':
        return revoke(command, state);
      case 'RecordAdminLogin': {
        const admin = requireAdmin(state, command.data.tenant);
        const data = {
          ...tenantData(command.data.tenant, command.data.at),
          admin: { ...toAdmin(admin), last_login_at: command.data.at },
        };
        return [{ type: 'AdminLoggedIn', data }];
      }
      case 'RemoveAdmin':
        return remove(command, state);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    if (event.type === 'AdminInvited')
      return {
        status: 'active',
        ...event.data.admin,
        organization_id: event.data.organization_id,
        scope: `${event.data.organization_id}:${event.data.environment}`,
        invitation_hash: event.data.invitation_hash,
        invitation_expires_at: event.data.invitation_expires_at,
        link_state: 'unused',
        session: null,
        allowed_setups: event.data.allowed_setups ?? defaultOnboardingSetups,
      };
    if (state.status === 'empty') return state;
    switch (event.type) {
      case 'AdminInvitationLinkExchanged':
        return { ...state, ...event.data.admin, link_state: 'exchanged' };
      case 'AdminInvitationLinkRevoked':
        return { ...state, link_state: 'revoked' };
      case 'AdminOnboardingSessionOpened': {
        const { id, session_hash, opened_at, idle_expires_at, expires_at } = event.data.session;
        return { ...state, session: { id, hash: session_hash, opened_at, idle_expires_at, expires_at } };
      }
      case 'AdminOnboardingSessionExtended':
        return state.session?.id === event.data.session_id
          ? { ...state, session: { ...state.session, idle_expires_at: event.data.idle_expires_at } }
          : state;
      case 'AdminOnboardingSessionEnded':
        return state.session?.id === event.data.session_id ? { ...state, session: null } : state;
      case 'AdminInvitationAccepted':
      case 'AdminInvitationDeclined':
        // Answers recorded before links were single use (the token answered directly) used the link up too.
        return { ...state, ...event.data.admin, link_state: state.link_state === 'unused' ? 'exchanged' : state.link_state };
      case 'AdminLoggedIn':
        return { ...state, ...event.data.admin };
      case 'AdminRemoved':
        return { ...state, status: 'removed', session: null };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
