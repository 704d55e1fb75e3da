import type { OperationInput, updateOrganization } from '@sesame/contracts';
import { handleCommand, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { organizationDecider } from '../domain/organization.decider';
import { toOrganization } from '../organization.resource';
import type { OrganizationsEnv, StoredOrganization } from '../organizations.env';
import { organizationStream } from '../projections/organizations.projection';

/** Updates the organization of the key's environment; one of the other environment is not found. */
export function updateOrganizationHandler(env: OrganizationsEnv) {
  return async ({ params, body }: OperationInput<typeof updateOrganization>, context: RequestContext) => {
    const { allowed_email_domains, allowed_authn_connections, ...rest } = body;
    const changes = {
      ...rest,
      ...(allowed_email_domains ? { allowed_email_domains: [...new Set(allowed_email_domains)] } : {}),
      ...(allowed_authn_connections ? { allowed_authn_connections: [...new Set(allowed_authn_connections)] } : {}),
    };
    const result = await handleCommand(
      env.commandDeps,
      organizationDecider,
      organizationStream(environmentOf(context.meta), params.org_domain),
      { type: 'UpdateOrganization', data: { changes, at: env.now().toISOString() } },
      env.metadata(context),
    );
    return ok(toOrganization(result.state as StoredOrganization));
  };
}
