import { catalogueError, fieldError, subjects } from '@sesame/contracts';
import type { Tenant, Organization, TotpConnection, User } from '@sesame/contracts';
import { environmentOf, fail, renderMessage } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { requireAuthnConnection } from '../../core/identity/authn-connections';
import { base32Decode, hotp, matchTotpStep, sameCode } from './domain/one-time-password';
import { defaultTotpConnection } from './domain/totp-connection.decider';
import { notEnrolledMessage } from './domain/totp-enrollment.decider';
import type { TotpEnrollmentData, TotpEnrollmentState } from './domain/totp-enrollment.decider';
import { totpConnectionKey } from './projections/totp.projection';
import type { SmsPort, TotpDeps } from './totp.deps';

/** The organization's tenant in the API key's environment; `name` issues the otpauth URI. */
export const tenantFrom = (organization: Organization, context: RequestContext): Tenant & { name: string } => {
  const environment = environmentOf(context.meta);
  return { organization_id: organization.id, organization_domain: organization.domain, environment, name: organization.name };
};

/** The organization (404 when unknown) in the API key's environment. */
export const tenantOf = async (deps: TotpDeps, domain: string, context: RequestContext) =>
  tenantFrom(await deps.organizations.get(domain, context.meta), context);

export const connectionOf = async (deps: TotpDeps, tenant: Tenant): Promise<TotpConnection> =>
  (await deps.connections.documents.get(totpConnectionKey(tenant.environment, tenant.organization_id)))?.connection ??
  defaultTotpConnection;

async function userOf(deps: TotpDeps, tenant: Tenant, id: string, context: RequestContext): Promise<User> {
  const { organization_domain, environment } = tenant;
  const { user } = await deps.identity.call(
    subjects.identity.users.findById,
    { organization_domain, environment, id },
    context.meta,
  );
  return user ?? fail(catalogueError('resource_not_found'));
}

/**
 * The organization, its active connection and the user: what every enrollment and challenge call
 * needs; a challenge (a sign-in) also needs the organization to allow `totp`.
 */
export async function activeScope(deps: TotpDeps, domain: string, userId: string, context: RequestContext, signIn = false) {
  const organization = await deps.organizations.get(domain, context.meta);
  if (signIn) requireAuthnConnection(organization, 'totp');
  const tenant = tenantFrom(organization, context);
  const [connection, user] = await Promise.all([connectionOf(deps, tenant), userOf(deps, tenant, userId, context)]);
  if (!connection.active) fail(catalogueError('inactive_totp'));
  return { tenant, connection, user, organization };
}

export async function enrollmentOf(deps: TotpDeps, userId: string): Promise<TotpEnrollmentState> {
  const state = await deps.enrollments.documents.get(userId);
  if (!state?.enrollment) fail(fieldError('user_id', notEnrolledMessage));
  return state;
}

/** The time step or counter whose code was typed (the secret is decrypted only here). */
export function checkCode(
  deps: TotpDeps,
  enrollment: TotpEnrollmentData,
  code: string,
  counter: number | null,
  nowMs: number,
): number | null {
  const secret = base32Decode(deps.keyRing.open(enrollment.encrypted_secret));
  if (enrollment.method === 'totp_mobile_app') return matchTotpStep(secret, code, nowMs, enrollment.period);
  return counter !== null && sameCode(hotp(secret, counter), code) ? counter : null;
}

/** The text of a code, in the organization's language. */
export const smsText = (deps: TotpDeps, organization: Organization, code: string, period: number) =>
  renderMessage(deps.messages, 'totp-code', organization, {
    organization: organization.domain,
    code,
    valid_for: { durationMs: period * 1_000 },
  }).text;

/** Where and how a code is texted to the user: a phone number and an SMS transport, checked before anything is done. */
export const smsOf = (deps: TotpDeps, user: User): { to: string; port: SmsPort } => {
  const to = user.phone_number ?? fail(fieldError('phone_number', 'is required to send a code by SMS'));
  return { to, port: deps.sms ?? fail(catalogueError('service_unavailable')) };
};
