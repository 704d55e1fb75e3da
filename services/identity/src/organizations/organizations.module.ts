import {
  createOrganization,
  deleteOrganization,
  getOrganization,
  listOrganizations,
  signInOrganizationRequestSchema,
  subjects,
  updateOrganization,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { createOrganizationHandler } from './commands/create-organization.handler';
import { deleteOrganizationHandler } from './commands/delete-organization.handler';
import { updateOrganizationHandler } from './commands/update-organization.handler';
import { organizationAggregate } from './commands/organization.aggregate';
import type { OrganizationsDeps } from './organizations.deps';
import { organizationsView } from './projections/organizations.projection';
import { getOrganizationHandler, listOrganizationsHandler, signInOrganizationHandler } from './queries/organization.queries';

/** Wires the organization aggregate into a service runtime: projection and handlers. */
export function registerOrganizations(runtime: ServiceRuntime): OrganizationsDeps {
  const view = runtime.projections.register(new AggregateView(organizationsView, runtime.readModels, runtime.eventStore));
  const deps: OrganizationsDeps = {
    organizations: runtime.aggregate(organizationAggregate),
    metadata: (context) => runtime.metadata(context),
    view,
    now: () => new Date(),
  };
  runtime.router.operation(createOrganization, createOrganizationHandler(deps));
  runtime.router.operation(listOrganizations, listOrganizationsHandler(deps));
  runtime.router.operation(getOrganization, getOrganizationHandler(deps));
  runtime.router.operation(updateOrganization, updateOrganizationHandler(deps));
  runtime.router.operation(deleteOrganization, deleteOrganizationHandler(deps));
  runtime.router.on(subjects.identity.organizations.forSignIn, signInOrganizationHandler(deps), signInOrganizationRequestSchema);
  return deps;
}
