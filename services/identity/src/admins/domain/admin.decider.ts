import { adminInvitationMessages, catalogueError, fieldError } from '@sesame/contracts';
import type { Admin, AdminEvent } from '@sesame/contracts';
import { fail, safeEqual } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import type { Tenant } from '../../users/domain/user.decider';

export interface AdminRecord extends Admin {
  organization_id: string;
  /** `<organization id>:<environment>` */
  scope: string;
  invitation_hash: string;
  invitation_expires_at: string;
  invitation_used: boolean;
}

export type AdminState = { status: 'empty' } | ({ status: 'active' | 'removed' } & AdminRecord);
export type StoredAdmin = Exclude<AdminState, { status: 'empty' }>;

export type AdminCommand =
  | {
      type: 'InviteAdmin';
      data: { tenant: Tenant; id: string; email: string; color: string; invitation_hash: string; expires_at: string; at: string };
    }
  | { type: 'AnswerInvitation'; data: { answer: 'accept' | 'decline'; invitation_hash: string; at: string } }
  | { type: 'OpenInvitation'; data: { invitation_hash: string; at: string } }
  | { type: 'RecordAdminLogin'; data: { tenant: Tenant; at: string } }
  | { type: 'RemoveAdmin'; data: { tenant: Tenant; reason: 'api' | 'organization_deleted'; at: string } };

const invitationMessages = adminInvitationMessages;

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

function requireAdmin(state: AdminState, tenant: Tenant): StoredAdmin {
  if (state.status !== 'active' || state.organization_id !== tenant.organization_id) fail(catalogueError('resource_not_found'));
  return state;
}

/**
 * The admin whose invitation a token (by its hash) opens at `at`: the onboarding page works
 * with it until it expires, also after it was accepted, but no longer once declined.
 */
export function openInvitation(state: AdminState, invitationHash: string, at: string): StoredAdmin {
  if (state.status !== 'active' || !safeEqual(state.invitation_hash, invitationHash))
    fail(fieldError('token', invitationMessages.invalid));
  if (state.declined_to_be_in_charge_at) fail(fieldError('token', invitationMessages.declined));
  if (Date.parse(state.invitation_expires_at) <= Date.parse(at)) fail(fieldError('token', invitationMessages.expired));
  return state;
}

function invite(command: Extract<AdminCommand, { type: 'InviteAdmin' }>, state: AdminState): AdminEvent[] {
  const { tenant, id, email, color, invitation_hash, expires_at, at } = command.data;
  const current = state.status === 'active' && state.organization_id === tenant.organization_id ? state : undefined;
  if (current?.accepted_invitation_at) fail(fieldError('email', 'has already been taken: this admin accepted an invitation'));
  const admin: Admin = {
    __type__: 'Admin',
    __domain__: tenant.organization_domain,
    __environment__: tenant.environment,
    id: current?.id ?? id,
    email: current?.email ?? email,
    organization: tenant.organization_domain,
    color: current?.color ?? color,
    invited_at: at,
    accepted_invitation_at: null,
    declined_to_be_in_charge_at: null,
    last_login_at: current?.last_login_at ?? null,
  };
  return [
    { type: 'AdminInvited', data: { ...tenantData(tenant, at), admin, invitation_hash, invitation_expires_at: expires_at } },
  ];
}

function answer(command: Extract<AdminCommand, { type: 'AnswerInvitation' }>, state: AdminState): AdminEvent[] {
  const { invitation_hash, at } = command.data;
  if (state.status !== 'active' || !safeEqual(state.invitation_hash, invitation_hash))
    fail(fieldError('token', invitationMessages.invalid));
  if (state.invitation_used) fail(fieldError('token', invitationMessages.used));
  if (Date.parse(state.invitation_expires_at) <= Date.parse(at)) fail(fieldError('token', invitationMessages.expired));
  const accepted = command.data.answer === 'accept';
  const admin: Admin = {
    ...toAdmin(state),
    accepted_invitation_at: accepted ? at : null,
    declined_to_be_in_charge_at: accepted ? null : at,
  };
  const data = { ...tenantData(adminTenant(state), at), admin };
  return [accepted ? { type: 'AdminInvitationAccepted', data } : { type: 'AdminInvitationDeclined', data }];
}

export const adminDecider: Decider<AdminState, AdminCommand, AdminEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'InviteAdmin':
        return invite(command, state);
      case 'AnswerInvitation':
        return answer(command, state);
      case 'OpenInvitation': {
        const admin = openInvitation(state, command.data.invitation_hash, command.data.at);
        const data = {
          ...tenantData(adminTenant(admin), command.data.at),
          admin: { ...toAdmin(admin), last_login_at: command.data.at },
        };
        return [{ type: 'AdminLoggedIn', data }];
      }
      case 'RecordAdminLogin': {
        const admin = requireAdmin(state, command.data.tenant);
        const data = {
          ...tenantData(command.data.tenant, command.data.at),
          admin: { ...toAdmin(admin), last_login_at: command.data.at },
        };
        return [{ type: 'AdminLoggedIn', data }];
      }
      case 'RemoveAdmin': {
        const admin = requireAdmin(state, command.data.tenant);
        const { tenant, reason, at } = command.data;
        return [{ type: 'AdminRemoved', data: { ...tenantData(tenant, at), admin: toAdmin(admin), reason } }];
      }
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AdminInvited':
        return {
          status: 'active',
          ...event.data.admin,
          organization_id: event.data.organization_id,
          scope: `${event.data.organization_id}:${event.data.environment}`,
          invitation_hash: event.data.invitation_hash,
          invitation_expires_at: event.data.invitation_expires_at,
          invitation_used: false,
        };
      case 'AdminInvitationAccepted':
      case 'AdminInvitationDeclined':
        return state.status === 'empty' ? state : { ...state, ...event.data.admin, invitation_used: true };
      case 'AdminLoggedIn':
        return state.status === 'empty' ? state : { ...state, ...event.data.admin };
      case 'AdminRemoved':
        return state.status === 'empty' ? state : { ...state, status: 'removed' };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
