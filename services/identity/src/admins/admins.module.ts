import { randomUUID } from 'node:crypto';
import {
  adminInvitationMessages,
  catalogueError,
  deleteAdmin,
  fieldError,
  getAdmin,
  inviteAdmin,
  listAdmins,
  onboardingScopeSchema,
  onboardingSessionCredentialSchema,
  onboardingSessionMessages,
  openAdminInvitation,
  paginate,
  recordAdminLoginRequestSchema,
  resolvePage,
  revokeAdminOnboarding,
  subjects,
} from '@sesame/contracts';
import type { AppError, OnboardingScope } from '@sesame/contracts';
import { AggregateView, created, fail, failure, hashSecret, ok, randomSecret, shippedMessageTemplates } from '@sesame/platform';
import type { Mailer, RequestContext, ServiceRuntime } from '@sesame/platform';
import type { IdentityConfig } from '../config';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import { findOrganization } from '../organizations/queries/organization.queries';
import { environmentOf, resolveTenant } from '../tenancy/tenant';
import type { Tenant } from '../users/domain/user.decider';
import type { AdminsDeps } from './admins.deps';
import * as invitations from './commands/invite-admin';
import { toAdmin } from './domain/admin.decider';
import type { AdminCommand, StoredAdmin } from './domain/admin.decider';
import { adminAggregate } from './commands/admin.aggregate';
import { endedOnboardingSessionSetCookie, onboardingSessionSetCookie } from './onboarding-session-cookie';
import { adminKey, adminsView } from './projections/admins.projection';

const second = 1_000;
const sessionEnded = catalogueError('onboarding_session_required', onboardingSessionMessages.ended);

/**
 * IT admins: invitations by email, the onboarding session an invitation link opens (the
 * onboarding page's calls), and the admin API.
 */
export function registerAdmins(
  runtime: ServiceRuntime,
  config: IdentityConfig,
  organizations: OrganizationsDeps,
  mailer: Mailer,
): AdminsDeps {
  const view = runtime.projections.register(new AggregateView(adminsView, runtime.readModels, runtime.eventStore));
  const deps: AdminsDeps = {
    admins: runtime.aggregate(adminAggregate),
    metadata: (context) => runtime.metadata(context),
    view,
    organizations,
    mailer,
    messages: shippedMessageTemplates(),
    onboardingUrl: `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/onboarding/admin-invitation`,
    times: {
      link_ttl_ms: config.SESAME_INVITATION_LINK_TTL_SECONDS * second,
      session_idle_ms: config.SESAME_ONBOARDING_IDLE_SECONDS * second,
      session_max_ms: config.SESAME_ONBOARDING_MAX_SECONDS * second,
    },
    secureCookie: new URL(config.SESAME_PUBLIC_URL).protocol === 'https:',
    now: () => new Date(),
  };
  const router = runtime.router;
  const tenantWithName = async (domain: string, environment: 'sandbox' | 'production') => {
    const tenant = await resolveTenant(organizations, domain, environment);
    const organization = await findOrganization(organizations, environment, domain);
    const audience = { locale: organization?.locale ?? null, timezone: organization?.timezone ?? null };
    return { ...tenant, organization_name: organization?.name ?? domain, audience };
  };
  const findAdmin = async (domain: string, environment: 'sandbox' | 'production', email: string) => {
    const tenant = await resolveTenant(organizations, domain, environment);
    const admin = await view.documents.get(adminKey(tenant.organization_id, environment, email));
    return { tenant, admin: admin?.status === 'active' ? admin : null };
  };
  /** The key of the admin an id names, or `refusal` without saying whether the admin exists. */
  const keyOf = async (adminId: string | undefined, refusal: AppError) => {
    const [admin] = adminId ? await view.documents.find({ id: adminId }) : [];
    if (!admin) fail(refusal);
    return (admin as { _id: string })._id;
  };
  /** A credential (link token or session cookie): the admin's key and the secret, or `refusal`. */
  const credentialOf = async (credential: string, refusal: AppError) => {
    const parsed = invitations.parseAdminCredential(credential);
    return { key: await keyOf(parsed?.adminId, refusal), secret: parsed?.secret ?? '' };
  };
  const at = () => deps.now().toISOString();
  /** One command on the admin `email` of the tenant; answers the admin as it is after. */
  const changeAdmin = async (tenant: Tenant, email: string, command: AdminCommand, context: RequestContext) => {
    const key = adminKey(tenant.organization_id, tenant.environment, email);
    const result = await deps.admins.handle(key, command, deps.metadata(context));
    return toAdmin(result.state as StoredAdmin);
  };

  router.operation(inviteAdmin, async ({ params, body }, context) => {
    const tenant = await tenantWithName(params.org_domain, environmentOf(context.meta));
    return created(await invitations.inviteAdmin(deps, tenant, body.email, deps.metadata(context), context.logger));
  });
  router.operation(listAdmins, async ({ params, query }, context) => {
    const tenant = await resolveTenant(organizations, params.org_domain, environmentOf(context.meta));
    const page = resolvePage(query);
    const filter = { scope: `${tenant.organization_id}:${tenant.environment}` };
    const [documents, total] = await Promise.all([
      view.documents.find(filter, { sort: { invited_at: 1 }, skip: page.skip, limit: page.perPage }),
      view.documents.count(filter),
    ]);
    return ok(
      paginate(
        documents.map((document) => toAdmin(document as StoredAdmin)),
        total,
        page,
      ),
    );
  });
  router.operation(getAdmin, async ({ params }, context) => {
    const { admin } = await findAdmin(params.org_domain, environmentOf(context.meta), params.email);
    return admin ? ok(toAdmin(admin)) : failure(catalogueError('resource_not_found'));
  });
  router.operation(deleteAdmin, async ({ params }, context) => {
    const tenant = await resolveTenant(organizations, params.org_domain, environmentOf(context.meta));
    const removed = await changeAdmin(
      tenant,
      params.email,
      { type: 'RemoveAdmin', data: { tenant, reason: 'api', at: at() } },
      context,
    );
    return ok({ deleted: true, resource: removed });
  });
  router.operation(revokeAdminOnboarding, async ({ params }, context) => {
    const tenant = await resolveTenant(organizations, params.org_domain, environmentOf(context.meta));
    return ok(await changeAdmin(tenant, params.email, { type: 'RevokeOnboarding', data: { tenant, at: at() } }, context));
  });

  /** What the onboarding page shows: the admin, their organization, the session in this browser. */
  const invitationView = async (admin: StoredAdmin) => {
    const organization = await findOrganization(organizations, admin.__environment__, admin.__domain__);
    return {
      admin: toAdmin(admin),
      organization: {
        domain: admin.__domain__,
        name: organization?.name ?? admin.__domain__,
        allowed_email_domains: organization?.allowed_email_domains ?? [],
        locale: organization?.locale ?? null,
      },
      session: {
        expires_at: admin.session?.expires_at ?? at(),
        idle_timeout_seconds: config.SESAME_ONBOARDING_IDLE_SECONDS,
      },
    };
  };
  router.operation(openAdminInvitation, async ({ body }, context) => {
    const { key, secret } = await credentialOf(body.token, fieldError('token', adminInvitationMessages.invalid));
    const sessionSecret = randomSecret(32);
    const now = deps.now();
    const result = await deps.admins.handle(
      key,
      {
        type: 'OpenInvitationLink',
        data: {
          invitation_hash: hashSecret(secret),
          session: { id: randomUUID(), hash: hashSecret(sessionSecret) },
          times: deps.times,
          at: now.toISOString(),
        },
      },
      deps.metadata(context),
    );
    const admin = result.state as StoredAdmin;
    const maxAge = (Date.parse(admin.session?.expires_at ?? now.toISOString()) - now.getTime()) / second;
    const cookie = onboardingSessionSetCookie(invitations.adminCredential(admin.id, sessionSecret), maxAge, deps.secureCookie);
    return { ...ok(await invitationView(admin)), headers: { 'set-cookie': cookie } };
  });
  router.on(
    subjects.identity.admins.authenticateOnboardingSession,
    async (input, context) => {
      const { key, secret } = await credentialOf(input.session, sessionEnded);
      const result = await deps.admins.handle(
        key,
        { type: 'UseOnboardingSession', data: { session_hash: hashSecret(secret), times: deps.times, at: at() } },
        deps.metadata(context),
      );
      const admin = result.state as StoredAdmin;
      return ok({
        organization_domain: admin.__domain__,
        environment: admin.__environment__,
        admin_id: admin.id,
        session_id: admin.session?.id as string,
      });
    },
    onboardingSessionCredentialSchema,
  );
  router.on(
    subjects.identity.admins.onboardingSession,
    async (input: OnboardingScope) => {
      const { state: admin } = await deps.admins.load(await keyOf(input.admin_id, sessionEnded));
      if (admin.status !== 'active' || admin.session?.id !== input.session_id) fail(sessionEnded);
      return ok(await invitationView(admin));
    },
    onboardingScopeSchema,
  );
  const answer = (choice: 'accept' | 'decline') => async (input: OnboardingScope, context: RequestContext) => {
    const result = await deps.admins.handle(
      await keyOf(input.admin_id, sessionEnded),
      { type: 'AnswerInvitation', data: { answer: choice, session_id: input.session_id, at: at() } },
      deps.metadata(context),
    );
    return {
      ...ok(toAdmin(result.state as StoredAdmin)),
      headers: { 'set-cookie': endedOnboardingSessionSetCookie(deps.secureCookie) },
    };
  };
  router.on(subjects.identity.admins.acceptInvitation, answer('accept'), onboardingScopeSchema);
  router.on(subjects.identity.admins.declineInvitation, answer('decline'), onboardingScopeSchema);
  router.on(
    subjects.identity.admins.recordLogin,
    async (input, context) => {
      const tenant = await resolveTenant(organizations, input.organization_domain, input.environment);
      return ok(await changeAdmin(tenant, input.email, { type: 'RecordAdminLogin', data: { tenant, at: at() } }, context));
    },
    recordAdminLoginRequestSchema,
  );
  return deps;
}
