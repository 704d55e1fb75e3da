import type { OperationInput, deleteOrganization } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { toOrganization } from '../organization.resource';
import type { OrganizationsDeps } from '../organizations.deps';
import { runOrganizationCommand } from './organization.commands';

/**
 * Deletes the organization of the key's environment and gives its `tenant_id` back;
 * `OrganizationDeleted` names that environment for the cascade.
 */
export function deleteOrganizationHandler(deps: OrganizationsDeps) {
  return async ({ params }: OperationInput<typeof deleteOrganization>, context: RequestContext) => {
    const organization = await runOrganizationCommand(
      deps,
      environmentOf(context.meta),
      params.org_domain,
      { type: 'DeleteOrganization', data: { at: deps.now().toISOString() } },
      deps.metadata(context),
    );
    return ok({ deleted: true, resource: toOrganization(organization) });
  };
}
