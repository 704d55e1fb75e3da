import { randomUUID } from 'node:crypto';
import { adminInvitationMessages, defaultOnboardingSetups, fieldError } from '@sesame/contracts';
import type {
  OnboardingScope,
  OperationInput,
  deleteAdmin,
  inviteAdmin,
  onboardingSessionCredentialSchema,
  openAdminInvitation,
  recordAdminLoginRequestSchema,
  revokeAdminOnboarding,
  z,
} from '@sesame/contracts';
import { actingFor, created, hashSecret, ok, randomSecret } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf, resolveTenant } from '../../tenancy/tenant';
import type { Tenant } from '../../users/domain/user.decider';
import { credentialOf, adminKeyOf, invitationView, sessionEnded, tenantWithName } from '../admin-lookups';
import type { AdminsDeps } from '../admins.deps';
import { toAdmin } from '../domain/admin.decider';
import type { AdminCommand, StoredAdmin } from '../domain/admin.decider';
import { endedOnboardingSessionSetCookie, onboardingSessionSetCookie } from '../onboarding-session-cookie';
import { adminKey } from '../projections/admins.projection';
import * as invitations from './invite-admin';

const second = 1_000;

/** One command on the admin `email` of the tenant; answers the admin as it is after. */
async function changeAdmin(deps: AdminsDeps, tenant: Tenant, email: string, command: AdminCommand, context: RequestContext) {
  const key = adminKey(tenant.organization_id, tenant.environment, email);
  return toAdmin((await deps.admins.handle(key, command, deps.metadata(context))).state as StoredAdmin);
}

export function inviteAdminHandler(deps: AdminsDeps) {
  return async ({ params, body }: OperationInput<typeof inviteAdmin>, context: RequestContext) => {
    const tenant = await tenantWithName(deps, params.org_domain, environmentOf(context.meta));
    const invitation = { email: body.email, allowed_setups: body.allowed_setups ?? defaultOnboardingSetups };
    return created(await invitations.inviteAdmin(deps, tenant, invitation, deps.metadata(context), context.logger));
  };
}

export function deleteAdminHandler(deps: AdminsDeps) {
  return async ({ params }: OperationInput<typeof deleteAdmin>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const command: AdminCommand = { type: 'RemoveAdmin', data: { tenant, reason: 'api', at: deps.now().toISOString() } };
    return ok({ deleted: true, resource: await changeAdmin(deps, tenant, params.email, command, context) });
  };
}

export function revokeAdminOnboardingHandler(deps: AdminsDeps) {
  return async ({ params }: OperationInput<typeof revokeAdminOnboarding>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const command: AdminCommand = { type: 'RevokeOnboarding', data: { tenant, at: deps.now().toISOString() } };
    return ok(await changeAdmin(deps, tenant, params.email, command, context));
  };
}

/** The invitation link opens an onboarding session, whose cookie the answer sets. */
export function openAdminInvitationHandler(deps: AdminsDeps) {
  return async ({ body }: OperationInput<typeof openAdminInvitation>, context: RequestContext) => {
    const { key, secret, actor } = await credentialOf(deps, body.token, fieldError('token', adminInvitationMessages.invalid));
    const sessionSecret = randomSecret(32);
    const now = deps.now();
    const session = { id: randomUUID(), hash: hashSecret(sessionSecret) };
    const command: AdminCommand = {
      type: 'OpenInvitationLink',
      data: { invitation_hash: hashSecret(secret), session, times: deps.times, at: now.toISOString() },
    };
    const admin = (await deps.admins.handle(key, command, deps.metadata(actingFor(context, actor)))).state as StoredAdmin;
    const maxAge = (Date.parse(admin.session?.expires_at ?? now.toISOString()) - now.getTime()) / second;
    const cookie = onboardingSessionSetCookie(invitations.adminCredential(admin.id, sessionSecret), maxAge, deps.secureCookie);
    return { ...ok(await invitationView(deps, admin)), headers: { 'set-cookie': cookie } };
  };
}

/** The gateway authenticates an onboarding session cookie: the session is used (its idle time starts again). */
export function authenticateOnboardingSessionHandler(deps: AdminsDeps) {
  return async (input: z.infer<typeof onboardingSessionCredentialSchema>, context: RequestContext) => {
    const { key, secret, actor } = await credentialOf(deps, input.session, sessionEnded);
    const command: AdminCommand = {
      type: 'UseOnboardingSession',
      data: {
        session_hash: hashSecret(secret),
        ...(input.setup ? { setup: input.setup } : {}),
        times: deps.times,
        at: deps.now().toISOString(),
      },
    };
    const admin = (await deps.admins.handle(key, command, deps.metadata(actingFor(context, actor)))).state as StoredAdmin;
    return ok({
      organization_domain: admin.__domain__,
      environment: admin.__environment__,
      admin_id: admin.id,
      session_id: admin.session?.id as string,
    });
  };
}

/** The admin accepts or declines the invitation; the session ends either way. */
export function answerInvitationHandler(deps: AdminsDeps, answer: 'accept' | 'decline') {
  return async (input: OnboardingScope, context: RequestContext) => {
    const command: AdminCommand = {
      type: 'AnswerInvitation',
      data: { answer, session_id: input.session_id, at: deps.now().toISOString() },
    };
    const key = await adminKeyOf(deps, input.admin_id, sessionEnded);
    const admin = (await deps.admins.handle(key, command, deps.metadata(context))).state as StoredAdmin;
    return { ...ok(toAdmin(admin)), headers: { 'set-cookie': endedOnboardingSessionSetCookie(deps.secureCookie) } };
  };
}

export function recordAdminLoginHandler(deps: AdminsDeps) {
  return async (input: z.infer<typeof recordAdminLoginRequestSchema>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, input.organization_domain, input.environment);
    const command: AdminCommand = { type: 'RecordAdminLogin', data: { tenant, at: deps.now().toISOString() } };
    return ok(await changeAdmin(deps, tenant, input.email, command, context));
  };
}
