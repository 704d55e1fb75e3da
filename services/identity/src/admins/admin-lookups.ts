import { catalogueError, onboardingSessionMessages } from '@sesame/contracts';
import type { AppError, Environment } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import { findOrganization } from '../organizations/queries/organization.queries';
import { resolveTenant } from '../tenancy/tenant';
import type { AdminsDeps } from './admins.deps';
import { parseAdminCredential } from './commands/invite-admin';
import { toAdmin } from './domain/admin.decider';
import type { StoredAdmin } from './domain/admin.decider';

const second = 1_000;
export const sessionEnded = catalogueError('onboarding_session_required', onboardingSessionMessages.ended);

/** The organization an admin is invited to, with its name and the language of its emails. */
export async function tenantWithName(deps: AdminsDeps, domain: string, environment: Environment) {
  const tenant = await resolveTenant(deps.organizations, domain, environment);
  const organization = await findOrganization(deps.organizations, environment, domain);
  const audience = { locale: organization?.locale ?? null, timezone: organization?.timezone ?? null };
  return { ...tenant, organization_name: organization?.name ?? domain, audience };
}

/** The key of the admin an id names, or `refusal` without saying whether the admin exists. */
export async function adminKeyOf(deps: AdminsDeps, adminId: string | undefined, refusal: AppError): Promise<string> {
  const [admin] = adminId ? await deps.view.documents.find({ id: adminId }) : [];
  if (!admin) fail(refusal);
  return (admin as { _id: string })._id;
}

/**
 * A credential (link token or session cookie): the admin's key and the secret, or `refusal`; and
 * the IT admin who acts with it (named by the admin's id; the admin's stream checks the secret).
 */
export async function credentialOf(deps: AdminsDeps, credential: string, refusal: AppError) {
  const parsed = parseAdminCredential(credential);
  const key = await adminKeyOf(deps, parsed?.adminId, refusal);
  return { key, secret: parsed?.secret ?? '', actor: { type: 'it_admin' as const, id: parsed?.adminId as string } };
}

/** What the onboarding page shows: the admin, their organization, the session in this browser. */
export async function invitationView(deps: AdminsDeps, admin: StoredAdmin) {
  const organization = await findOrganization(deps.organizations, admin.__environment__, admin.__domain__);
  return {
    admin: toAdmin(admin),
    organization: {
      domain: admin.__domain__,
      name: organization?.name ?? admin.__domain__,
      allowed_email_domains: organization?.allowed_email_domains ?? [],
      locale: organization?.locale ?? null,
    },
    allowed_setups: admin.allowed_setups,
    session: {
      expires_at: admin.session?.expires_at ?? deps.now().toISOString(),
      idle_timeout_seconds: deps.times.session_idle_ms / second,
    },
  };
}
