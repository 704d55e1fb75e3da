import { catalogueError } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import { findOrganization } from '../organizations/queries/organization.queries';
import type { Tenant } from '../users/domain/user.decider';

/** The environment of the API key; operations without one are refused as unauthorized. */
export { environmentOf } from '@sesame/platform';

/**
 * The live organization `domain` of `environment` (each environment has its own organizations):
 * resources under an unknown or deleted organization, or under the other environment's, answer
 * 404. Lookups go by the organization's id, so the users of a deleted organization stay
 * invisible even if its domain is taken again.
 */
export async function resolveTenant(
  organizations: Pick<OrganizationsDeps, 'view' | 'organizations'>,
  domain: string,
  environment: Environment,
): Promise<Tenant> {
  const organization = await findOrganization(organizations, environment, domain);
  if (!organization) fail(catalogueError('resource_not_found'));
  return {
    organization_id: organization.id,
    organization_domain: organization.domain,
    allowed_email_domains: organization.allowed_email_domains,
    environment,
  };
}
