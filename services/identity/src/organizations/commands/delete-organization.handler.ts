import type { OperationInput, deleteOrganization } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { toOrganization } from '../organization.resource';
import type { OrganizationsEnv } from '../organizations.env';
import { runOrganizationCommand } from './organization.commands';

/**
 * Deletes the organization of the key's environment and gives its `tenant_id` back;
 * `OrganizationDeleted` names that environment for the cascade.
 */
export function deleteOrganizationHandler(env: OrganizationsEnv) {
  return async ({ params }: OperationInput<typeof deleteOrganization>, context: RequestContext) => {
    const organization = await runOrganizationCommand(
      env,
      environmentOf(context.meta),
      params.org_domain,
      { type: 'DeleteOrganization', data: { at: env.now().toISOString() } },
      env.metadata(context),
    );
    return ok({ deleted: true, resource: toOrganization(organization) });
  };
}
