import {
  acceptAdminInvitation,
  adminInvitationMessages,
  catalogueError,
  declineAdminInvitation,
  deleteAdmin,
  fieldError,
  getAdmin,
  inviteAdmin,
  invitationTokenRequestSchema,
  listAdmins,
  openAdminInvitation,
  paginate,
  recordAdminLoginRequestSchema,
  resolvePage,
  subjects,
} from '@sesame/contracts';
import { AggregateView, created, fail, failure, handleCommand, hashSecret, ok } from '@sesame/platform';
import type { Mailer, RequestContext, ServiceRuntime } from '@sesame/platform';
import type { IdentityConfig } from '../config';
import type { OrganizationsEnv } from '../organizations/organizations.env';
import { environmentOf, resolveTenant } from '../tenancy/tenant';
import type { AdminsEnv } from './admins.env';
import * as invitations from './commands/invite-admin';
import { adminDecider, openInvitation, toAdmin } from './domain/admin.decider';
import type { AdminState, StoredAdmin } from './domain/admin.decider';
import { adminKey, adminStream, adminsView } from './projections/admins.projection';

const day = 86_400_000;

/** IT admins: invitations by email, answers through the invitation token, and the admin API. */
export function registerAdmins(
  runtime: ServiceRuntime,
  config: IdentityConfig,
  organizations: OrganizationsEnv,
  mailer: Mailer,
): AdminsEnv {
  const view = runtime.projections.register(new AggregateView(adminsView, runtime.readModels, runtime.eventStore));
  const env: AdminsEnv = {
    commandDeps: runtime.commandDeps<AdminState>(),
    metadata: (context) => runtime.metadata(context),
    view,
    organizations,
    mailer,
    onboardingUrl: `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/onboarding/admin-invitation`,
    invitationTtlMs: config.SESAME_ADMIN_INVITATION_TTL_DAYS * day,
    now: () => new Date(),
  };
  const router = runtime.router;
  const tenantWithName = async (domain: string, environment: 'sandbox' | 'production') => {
    const tenant = await resolveTenant(organizations, domain, environment);
    const organization = await organizations.view.documents.get(domain);
    return { ...tenant, organization_name: organization?.status === 'active' ? organization.name : domain };
  };
  const findAdmin = async (domain: string, environment: 'sandbox' | 'production', email: string) => {
    const tenant = await resolveTenant(organizations, domain, environment);
    const admin = await view.documents.get(adminKey(tenant.organization_id, environment, email));
    return { tenant, admin: admin?.status === 'active' ? admin : null };
  };
  /** The invitation a token names, or a 422 on `token` without saying whether the admin exists. */
  const invitationOf = async (token: string) => {
    const parsed = invitations.parseInvitationToken(token);
    const [admin] = parsed ? await view.documents.find({ id: parsed.adminId }) : [];
    if (!parsed || !admin) fail(fieldError('token', adminInvitationMessages.invalid));
    return { admin: admin as StoredAdmin & { _id: string }, secret: parsed.secret };
  };
  const answer =
    (choice: 'accept' | 'decline') =>
    async ({ body }: { body: { token: string } }, context: RequestContext) => {
      const { admin, secret } = await invitationOf(body.token);
      const result = await handleCommand(
        env.commandDeps,
        adminDecider,
        adminStream(admin._id),
        { type: 'AnswerInvitation', data: { answer: choice, invitation_hash: hashSecret(secret), at: env.now().toISOString() } },
        env.metadata(context),
      );
      return ok(toAdmin(result.state as StoredAdmin));
    };

  router.operation(inviteAdmin, async ({ params, body }, context) => {
    const tenant = await tenantWithName(params.org_domain, environmentOf(context.meta));
    return created(await invitations.inviteAdmin(env, tenant, body.email, env.metadata(context), context.logger));
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
    const result = await handleCommand(
      env.commandDeps,
      adminDecider,
      adminStream(adminKey(tenant.organization_id, tenant.environment, params.email)),
      { type: 'RemoveAdmin', data: { tenant, reason: 'api', at: env.now().toISOString() } },
      env.metadata(context),
    );
    return ok({ deleted: true, resource: toAdmin(result.state as StoredAdmin) });
  });
  /** The invitation a token opens now, for the onboarding page (`invitation`), or a 422 on `token`. */
  const invitationView = async (admin: StoredAdmin) => {
    const document = await organizations.view.documents.get(admin.__domain__);
    const organization = document?.status === 'active' ? document : null;
    return {
      admin: toAdmin(admin),
      organization: {
        domain: admin.__domain__,
        name: organization?.name ?? admin.__domain__,
        allowed_email_domains: organization?.allowed_email_domains ?? [],
        locale: organization?.locale ?? null,
      },
      expires_at: admin.invitation_expires_at,
    };
  };
  router.operation(openAdminInvitation, async ({ body }, context) => {
    const { admin, secret } = await invitationOf(body.token);
    const result = await handleCommand(
      env.commandDeps,
      adminDecider,
      adminStream(admin._id),
      { type: 'OpenInvitation', data: { invitation_hash: hashSecret(secret), at: env.now().toISOString() } },
      env.metadata(context),
    );
    return ok(await invitationView(result.state as StoredAdmin));
  });
  router.operation(acceptAdminInvitation, answer('accept'));
  router.operation(declineAdminInvitation, answer('decline'));
  router.on(
    subjects.identity.admins.inspectInvitation,
    async (input) => {
      const { admin, secret } = await invitationOf(input.token);
      return ok(await invitationView(openInvitation(admin, hashSecret(secret), env.now().toISOString())));
    },
    invitationTokenRequestSchema,
  );
  router.on(
    subjects.identity.admins.recordLogin,
    async (input, context) => {
      const tenant = await resolveTenant(organizations, input.organization_domain, input.environment);
      const result = await handleCommand(
        env.commandDeps,
        adminDecider,
        adminStream(adminKey(tenant.organization_id, tenant.environment, input.email)),
        { type: 'RecordAdminLogin', data: { tenant, at: env.now().toISOString() } },
        env.metadata(context),
      );
      return ok(toAdmin(result.state as StoredAdmin));
    },
    recordAdminLoginRequestSchema,
  );
  return env;
}
