import { catalogueError, fieldError, orgDomainRequiredMessages } from '@sesame/contracts';
import type {
  Environment,
  OperationInput,
  getOrganization,
  listOrganizations,
  signInOrganizationRequestSchema,
  z,
} from '@sesame/contracts';
import { failure, findPage, ok } from '@sesame/platform';
import type { Filter, RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { toOrganization } from '../organization.resource';
import type { OrganizationsDeps, StoredOrganization } from '../organizations.deps';
import { organizationKey } from '../projections/organizations.projection';

/**
 * The live organization `domain` of `environment`, or null: an organization of the other
 * environment is another one, so a key never reaches it.
 */
export async function findOrganization(
  deps: Pick<OrganizationsDeps, 'view' | 'organizations'>,
  environment: Environment,
  domain: string,
): Promise<StoredOrganization | null> {
  const key = organizationKey(environment, domain);
  const document = await deps.view.documents.get(key);
  if (document) return document.status === 'active' ? document : null;
  // Not in this replica's read model yet (created through another replica a moment ago, its
  // projection behind): the organization's own stream says whether it exists.
  const { state } = await deps.organizations.load(key);
  return state.status === 'active' ? state : null;
}

export function listOrganizationsHandler(deps: OrganizationsDeps) {
  return async ({ query }: OperationInput<typeof listOrganizations>, context: RequestContext) => {
    const statuses = query.q?.environments_status_in;
    const filter: Filter = {
      environment: environmentOf(context.meta),
      ...(statuses?.length ? { 'environments.status': { $in: statuses } } : {}),
    };
    return ok(
      await findPage(deps.view.documents, { filter, sort: { inserted_at: 1 }, query }, (document) =>
        toOrganization(document as StoredOrganization),
      ),
    );
  };
}

export function getOrganizationHandler(deps: OrganizationsDeps) {
  return async ({ params }: OperationInput<typeof getOrganization>, context: RequestContext) => {
    const organization = await findOrganization(deps, environmentOf(context.meta), params.org_domain);
    if (!organization) return failure(catalogueError('resource_not_found'));
    return ok(toOrganization(organization));
  };
}

/**
 * The organizations a sign-in by email may go to, the one place routing by email is decided
 * (password, magic link, SSO discovery): in production, the organization that verified the
 * email's domain (at most one: a verified domain is reserved); in sandbox, those that allow it,
 * verified or not (a developer's convenience: no DNS record needed to try a sign-in).
 */
export function routingByEmailFilter(environment: Environment, emailDomain: string): Filter {
  const allowing = { allowed_email_domains: emailDomain, environment };
  if (environment === 'sandbox') return allowing;
  return { ...allowing, domain_verifications: { $elemMatch: { email_domain: emailDomain, status: 'verified' } } };
}

/**
 * The organization a sign-in is for (`identity.organizations.for-sign-in`), in the environment
 * of the caller's key (`meta.environment`): the one named (verified domain or not), else the only
 * one `routingByEmailFilter` finds for the email's domain (SPEC.md section 5).
 */
export function signInOrganizationHandler(deps: OrganizationsDeps) {
  return async ({ email, org_domain }: z.infer<typeof signInOrganizationRequestSchema>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    if (org_domain) {
      const organization = await findOrganization(deps, environment, org_domain);
      if (!organization) return failure(catalogueError('resource_not_found'));
      return ok({ organization: toOrganization(organization) });
    }
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const documents = await deps.view.documents.find(routingByEmailFilter(environment, domain), { limit: 2 });
    if (documents.length === 0)
      return failure(fieldError('org_domain', orgDomainRequiredMessages[environment === 'production' ? 'unverified' : 'none']));
    if (documents.length > 1) return failure(fieldError('org_domain', orgDomainRequiredMessages.several));
    return ok({ organization: toOrganization(documents[0] as StoredOrganization) });
  };
}
