import { randomUUID } from 'node:crypto';
import { fieldError } from '@sesame/contracts';
import type {
  createGroupRequestSchema,
  groupIdRequestSchema,
  groupMembersRequestSchema,
  updateGroupRequestSchema,
  z,
} from '@sesame/contracts';
import { created, fail, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { resolveTenant } from '../../tenancy/tenant';
import type { Tenant } from '../../users/domain/user.decider';
import { toGroup } from '../domain/group.decider';
import type { GroupCommand, StoredGroup } from '../domain/group.decider';
import type { GroupsDeps } from '../groups.deps';

type TenantInput = { organization_domain: string; environment: 'sandbox' | 'production' };

const tenantOf = (deps: GroupsDeps, input: TenantInput) =>
  resolveTenant(deps.organizations, input.organization_domain, input.environment);

/** Members must be users of the group's organization and environment. */
async function checkMembers(deps: GroupsDeps, tenant: Tenant, members: string[]): Promise<void> {
  if (members.length === 0) return;
  const scope = `${tenant.organization_id}:${tenant.environment}`;
  const found = await deps.users.view.documents.find({ scope, _id: { $in: members } });
  const known = new Set(found.map((user) => user._id));
  const unknown = members.filter((member) => !known.has(member));
  if (unknown.length > 0)
    fail(fieldError('members', `are not users of this organization and environment: ${unknown.join(', ')}`));
}

/** One command on a group; answers the group as it is after. */
async function change(deps: GroupsDeps, id: string, command: GroupCommand, context: Pick<RequestContext, 'meta'>) {
  return toGroup((await deps.groups.handle(id, command, deps.metadata(context))).state as StoredGroup);
}

export function createGroupHandler(deps: GroupsDeps) {
  return async (input: z.infer<typeof createGroupRequestSchema>, context: RequestContext) => {
    const tenant = await tenantOf(deps, input);
    await checkMembers(deps, tenant, input.members);
    const id = randomUUID();
    const { display_name, members } = input;
    const at = deps.now().toISOString();
    return created(await change(deps, id, { type: 'CreateGroup', data: { tenant, id, display_name, members, at } }, context));
  };
}

export function updateGroupHandler(deps: GroupsDeps) {
  return async (input: z.infer<typeof updateGroupRequestSchema>, context: RequestContext) => {
    const tenant = await tenantOf(deps, input);
    if (input.members !== undefined) await checkMembers(deps, tenant, input.members);
    const command: GroupCommand = {
      type: 'UpdateGroup',
      data: {
        tenant,
        at: deps.now().toISOString(),
        ...(input.display_name !== undefined ? { display_name: input.display_name } : {}),
        ...(input.members !== undefined ? { members: input.members } : {}),
      },
    };
    return ok(await change(deps, input.id, command, context));
  };
}

export function addGroupMembersHandler(deps: GroupsDeps) {
  return async (input: z.infer<typeof groupMembersRequestSchema>, context: RequestContext) => {
    const tenant = await tenantOf(deps, input);
    await checkMembers(deps, tenant, input.members);
    const at = deps.now().toISOString();
    return ok(await change(deps, input.id, { type: 'AddGroupMembers', data: { tenant, members: input.members, at } }, context));
  };
}

export function removeGroupMembersHandler(deps: GroupsDeps) {
  return async (input: z.infer<typeof groupMembersRequestSchema>, context: RequestContext) => {
    const tenant = await tenantOf(deps, input);
    const at = deps.now().toISOString();
    return ok(
      await change(deps, input.id, { type: 'RemoveGroupMembers', data: { tenant, members: input.members, at } }, context),
    );
  };
}

export function deleteGroupHandler(deps: GroupsDeps) {
  return async (input: z.infer<typeof groupIdRequestSchema>, context: RequestContext) => {
    const tenant = await tenantOf(deps, input);
    const at = deps.now().toISOString();
    const resource = await change(deps, input.id, { type: 'DeleteGroup', data: { tenant, reason: 'api', at } }, context);
    return ok({ deleted: true, resource });
  };
}
