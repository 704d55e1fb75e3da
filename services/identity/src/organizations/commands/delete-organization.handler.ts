import type { OperationInput, deleteOrganization } from '@sesame/contracts';
import { handleCommand, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { organizationDecider } from '../domain/organization.decider';
import { toOrganization } from '../organization.resource';
import type { OrganizationsEnv, StoredOrganization } from '../organizations.env';
import { organizationStream } from '../projections/organizations.projection';

/** Deletes the organization of the key's environment; `OrganizationDeleted` names that environment for the cascade. */
export function deleteOrganizationHandler(env: OrganizationsEnv) {
  return async ({ params }: OperationInput<typeof deleteOrganization>, context: RequestContext) => {
    const result = await handleCommand(
      env.commandDeps,
      organizationDecider,
      organizationStream(environmentOf(context.meta), params.org_domain),
      { type: 'DeleteOrganization', data: { at: env.now().toISOString() } },
      env.metadata(context),
    );
    return ok({ deleted: true, resource: toOrganization(result.state as StoredOrganization) });
  };
}
