import type { OperationInput, getUserLimit } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf, resolveTenant } from '../../tenancy/tenant';
import type { UsersEnv } from '../users.env';
import { environmentCount, organizationCount, usageOf } from './user-seats';

/** `GET /api/v2/user-limit`: the plan's limit of the key's environment, and of an organization when one is named. */
export function getUserLimitHandler(env: UsersEnv) {
  return async ({ query }: OperationInput<typeof getUserLimit>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const deps = { eventStore: env.eventStore, users: env.view.documents, limits: env.limits };
    const tenant = query.org_domain ? await resolveTenant(env.organizations, query.org_domain, environment) : null;
    return ok({
      environment,
      users: await usageOf(deps, environmentCount(env.limits, environment)),
      organization: tenant
        ? { domain: tenant.organization_domain, ...(await usageOf(deps, organizationCount(env.limits, tenant))) }
        : null,
    });
  };
}
