import { paginate, resolvePage } from '@sesame/contracts';
import type { groupIdRequestSchema, listGroupsRequestSchema, z } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import { resolveTenant } from '../../tenancy/tenant';
import { toGroup } from '../domain/group.decider';
import type { StoredGroup } from '../domain/group.decider';
import type { GroupsDeps } from '../groups.deps';

export function getGroupHandler(deps: GroupsDeps) {
  return async (input: z.infer<typeof groupIdRequestSchema>) => {
    const tenant = await resolveTenant(deps.organizations, input.organization_domain, input.environment);
    const group = await deps.view.documents.get(input.id);
    const visible = group?.status === 'active' && group.scope === `${tenant.organization_id}:${tenant.environment}`;
    return ok({ group: visible ? toGroup(group) : null });
  };
}

export function listGroupsHandler(deps: GroupsDeps) {
  return async (input: z.infer<typeof listGroupsRequestSchema>) => {
    const tenant = await resolveTenant(deps.organizations, input.organization_domain, input.environment);
    const page = resolvePage(input);
    const filter: Record<string, unknown> = { scope: `${tenant.organization_id}:${tenant.environment}` };
    if (input.display_name !== undefined) filter.display_name = input.display_name;
    if (input.member !== undefined) filter.members = input.member;
    const [documents, total] = await Promise.all([
      deps.view.documents.find(filter, { sort: { inserted_at: 1 }, skip: page.skip, limit: page.perPage }),
      deps.view.documents.count(filter),
    ]);
    const groups = documents.map((document) => toGroup(document as StoredGroup));
    return ok(paginate(groups, total, page));
  };
}
