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
import type { ServiceRuntime } from '@sesame/platform';
import { createOrganizationHandler } from './commands/create-organization.handler';
import { deleteOrganizationHandler } from './commands/delete-organization.handler';
import { updateOrganizationHandler } from './commands/update-organization.handler';
import { organizationAggregate } from './commands/organization.aggregate';
import type { OrganizationsEnv } from './organizations.env';
import { organizationsView } from './projections/organizations.projection';
import { getOrganizationHandler, listOrganizationsHandler, signInOrganizationHandler } from './queries/organization.queries';

/** Wires the organization aggregate into a service runtime: projection and handlers. */
export function registerOrganizations(runtime: ServiceRuntime): OrganizationsEnv {
  const view = runtime.projections.register(new AggregateView(organizationsView, runtime.readModels, runtime.eventStore));
  const env: OrganizationsEnv = {
    organizations: runtime.aggregate(organizationAggregate),
    metadata: (context) => runtime.metadata(context),
    view,
    now: () => new Date(),
  };
  runtime.router.operation(createOrganization, createOrganizationHandler(env));
  runtime.router.operation(listOrganizations, listOrganizationsHandler(env));
  runtime.router.operation(getOrganization, getOrganizationHandler(env));
  runtime.router.operation(updateOrganization, updateOrganizationHandler(env));
  runtime.router.operation(deleteOrganization, deleteOrganizationHandler(env));
  runtime.router.on(subjects.identity.organizations.forSignIn, signInOrganizationHandler(env), signInOrganizationRequestSchema);
  return env;
}
