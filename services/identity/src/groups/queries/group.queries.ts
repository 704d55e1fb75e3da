import type { groupIdRequestSchema, listGroupsRequestSchema, z } from '@sesame/contracts';
import { findPage, ok } from '@sesame/platform';
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
    const filter: Record<string, unknown> = { scope: `${tenant.organization_id}:${tenant.environment}` };
    if (input.display_name !== undefined) filter.display_name = input.display_name;
    if (input.member !== undefined) filter.members = input.member;
    return ok(
      await findPage(deps.view.documents, { filter, sort: { inserted_at: 1 }, query: input }, (document) =>
        toGroup(document as StoredGroup),
      ),
    );
  };
}
