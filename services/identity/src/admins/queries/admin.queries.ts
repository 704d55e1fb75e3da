import { catalogueError } from '@sesame/contracts';
import type { OnboardingScope, OperationInput, getAdmin, listAdmins } from '@sesame/contracts';
import { fail, failure, findPage, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf, resolveTenant } from '../../tenancy/tenant';
import { adminKeyOf, invitationView, sessionEnded } from '../admin-lookups';
import type { AdminsDeps } from '../admins.deps';
import { toAdmin } from '../domain/admin.decider';
import type { StoredAdmin } from '../domain/admin.decider';
import { adminKey } from '../projections/admins.projection';

export function listAdminsHandler(deps: AdminsDeps) {
  return async ({ params, query }: OperationInput<typeof listAdmins>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const filter = { scope: `${tenant.organization_id}:${tenant.environment}` };
    return ok(
      await findPage(deps.view.documents, { filter, sort: { invited_at: 1 }, query }, (document) =>
        toAdmin(document as StoredAdmin),
      ),
    );
  };
}

export function getAdminHandler(deps: AdminsDeps) {
  return async ({ params }: OperationInput<typeof getAdmin>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environment);
    const admin = await deps.view.documents.get(adminKey(tenant.organization_id, environment, params.email));
    return admin?.status === 'active' ? ok(toAdmin(admin)) : failure(catalogueError('resource_not_found'));
  };
}

/** The onboarding page's view of a session, read from the admin's stream (fresh on every replica). */
export function onboardingSessionHandler(deps: AdminsDeps) {
  return async (input: OnboardingScope) => {
    const { state: admin } = await deps.admins.load(await adminKeyOf(deps, input.admin_id, sessionEnded));
    if (admin.status !== 'active' || admin.session?.id !== input.session_id) fail(sessionEnded);
    return ok(await invitationView(deps, admin));
  };
}
