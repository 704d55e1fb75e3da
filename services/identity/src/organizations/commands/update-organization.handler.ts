import type { OperationInput, updateOrganization } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { toOrganization } from '../organization.resource';
import type { OrganizationsDeps } from '../organizations.deps';
import { runOrganizationCommand } from './organization.commands';

/**
 * Updates the organization of the key's environment (one of the other environment is not found);
 * a new `tenant_id` is taken and the previous one given back.
 */
export function updateOrganizationHandler(deps: OrganizationsDeps) {
  return async ({ params, body }: OperationInput<typeof updateOrganization>, context: RequestContext) => {
    const { allowed_email_domains, allowed_authn_connections, ...rest } = body;
    const changes = {
      ...rest,
      ...(allowed_email_domains ? { allowed_email_domains: [...new Set(allowed_email_domains)] } : {}),
      ...(allowed_authn_connections ? { allowed_authn_connections: [...new Set(allowed_authn_connections)] } : {}),
    };
    const organization = await runOrganizationCommand(
      deps,
      environmentOf(context.meta),
      params.org_domain,
      { type: 'UpdateOrganization', data: { changes, at: deps.now().toISOString() } },
      deps.metadata(context),
    );
    return ok(toOrganization(organization));
  };
}
