import { catalogueError, paginate, resolvePage } from '@sesame/contracts';
import type { OperationInput, getOrganization, listOrganizations } from '@sesame/contracts';
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
