import { catalogueError, fieldError, orgDomainRequiredMessages, paginate, resolvePage } from '@sesame/contracts';
import type { OperationInput, getOrganization, listOrganizations, signInOrganizationRequestSchema, z } from '@sesame/contracts';
import { failure, ok } from '@sesame/platform';
import type { Filter } from '@sesame/platform';
import { toOrganization } from '../organization.resource';
import type { OrganizationsEnv, StoredOrganization } from '../organizations.env';

export function listOrganizationsHandler(env: OrganizationsEnv) {
  return async ({ query }: OperationInput<typeof listOrganizations>) => {
    const page = resolvePage(query);
    const statuses = query.q?.environments_status_in;
    const filter: Filter = statuses?.length ? { 'environments.status': { $in: statuses } } : {};
    const [documents, total] = await Promise.all([
      env.view.documents.find(filter, { sort: { inserted_at: 1 }, skip: page.skip, limit: page.perPage }),
      env.view.documents.count(filter),
    ]);
    return ok(
      paginate(
        documents.map((document) => toOrganization(document as StoredOrganization)),
        total,
        page,
      ),
    );
  };
}

export function getOrganizationHandler(env: OrganizationsEnv) {
  return async ({ params }: OperationInput<typeof getOrganization>) => {
    const document = await env.view.documents.get(params.org_domain);
    if (!document) return failure(catalogueError('resource_not_found'));
    return ok(toOrganization(document as StoredOrganization));
  };
}

/**
 * The organization a sign-in is for (`identity.organizations.for-sign-in`): the one named, else
 * the only one whose `allowed_email_domains` holds the email's domain (SPEC.md section 5).
 */
export function signInOrganizationHandler(env: OrganizationsEnv) {
  return async ({ email, org_domain }: z.infer<typeof signInOrganizationRequestSchema>) => {
    if (org_domain) {
      const document = await env.view.documents.get(org_domain);
      if (!document) return failure(catalogueError('resource_not_found'));
      return ok({ organization: toOrganization(document as StoredOrganization) });
    }
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const documents = await env.view.documents.find({ allowed_email_domains: domain }, { limit: 2 });
    if (documents.length !== 1)
      return failure(fieldError('org_domain', orgDomainRequiredMessages[documents.length === 0 ? 'none' : 'several']));
    return ok({ organization: toOrganization(documents[0] as StoredOrganization) });
  };
}
