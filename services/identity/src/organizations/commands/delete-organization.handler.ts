import type { OperationInput, deleteOrganization } from '@sesame/contracts';
import { handleCommand, ok, streamName } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { organizationDecider } from '../domain/organization.decider';
import { toOrganization } from '../organization.resource';
import type { OrganizationsEnv, StoredOrganization } from '../organizations.env';
import { organizationStreamCategory } from '../projections/organizations.projection';

export function deleteOrganizationHandler(env: OrganizationsEnv) {
  return async ({ params }: OperationInput<typeof deleteOrganization>, context: RequestContext) => {
    const result = await handleCommand(
      env.commandDeps,
      organizationDecider,
      streamName(organizationStreamCategory, params.org_domain),
      { type: 'DeleteOrganization', data: { at: env.now().toISOString() } },
      env.metadata(context),
    );
    return ok({ deleted: true, resource: toOrganization(result.state as StoredOrganization) });
  };
}
