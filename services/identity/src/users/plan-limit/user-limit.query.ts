import type { OperationInput, getUserLimit } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf, resolveTenant } from '../../tenancy/tenant';
import type { UsersDeps } from '../users.deps';
import { environmentCount, organizationCount, usageOf } from './user-seats';

/** `GET /api/v2/user-limit`: the plan's limit of the key's environment, and of an organization when one is named. */
export function getUserLimitHandler(deps: UsersDeps) {
  return async ({ query }: OperationInput<typeof getUserLimit>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const counting = { eventStore: deps.eventStore, users: deps.view.documents, limits: deps.limits };
    const tenant = query.org_domain ? await resolveTenant(deps.organizations, query.org_domain, environment) : null;
    return ok({
      environment,
      users: await usageOf(counting, environmentCount(deps.limits, environment)),
      organization: tenant
        ? { domain: tenant.organization_domain, ...(await usageOf(counting, organizationCount(deps.limits, tenant))) }
        : null,
    });
  };
}
