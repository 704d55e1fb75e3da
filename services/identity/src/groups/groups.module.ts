import { randomUUID } from 'node:crypto';
import {
  createGroupRequestSchema,
  fieldError,
  groupIdRequestSchema,
  groupMembersRequestSchema,
  listGroupsRequestSchema,
  paginate,
  resolvePage,
  subjects,
  updateGroupRequestSchema,
} from '@sesame/contracts';
import type { GroupEvent } from '@sesame/contracts';
import { AggregateView, created, fail, ok } from '@sesame/platform';
import type { Aggregate, AggregateView as View, ServiceRuntime } from '@sesame/platform';
import type { OrganizationsEnv } from '../organizations/organizations.env';
import { resolveTenant } from '../tenancy/tenant';
import type { Tenant } from '../users/domain/user.decider';
import type { UsersEnv } from '../users/users.env';
import { toGroup } from './domain/group.decider';
import { groupAggregate } from './commands/group.aggregate';
import type { GroupCommand, GroupState, StoredGroup } from './domain/group.decider';
import { groupsView } from './projections/groups.projection';

export interface GroupsEnv {
  groups: Aggregate<GroupState, GroupCommand, GroupEvent>;
  view: View<GroupState, GroupEvent>;
}

/** Groups for directory sync: service subjects only (the SCIM issue gives them an API). */
export function registerGroups(runtime: ServiceRuntime, organizations: OrganizationsEnv, users: UsersEnv): GroupsEnv {
  const view = runtime.projections.register(new AggregateView(groupsView, runtime.readModels, runtime.eventStore));
  const env: GroupsEnv = { groups: runtime.aggregate(groupAggregate), view };
  const groups = subjects.identity.groups;
  const at = () => new Date().toISOString();
  const tenantOf = (input: { organization_domain: string; environment: 'sandbox' | 'production' }) =>
    resolveTenant(organizations, input.organization_domain, input.environment);
  /** Members must be users of the group's organization and environment. */
  const checkMembers = async (tenant: Tenant, members: string[]) => {
    if (members.length === 0) return;
    const scope = `${tenant.organization_id}:${tenant.environment}`;
    const found = await users.view.documents.find({ scope, _id: { $in: members } });
    const known = new Set(found.map((user) => user._id));
    const unknown = members.filter((member) => !known.has(member));
    if (unknown.length > 0)
      fail(fieldError('members', `are not users of this organization and environment: ${unknown.join(', ')}`));
  };
  /** One command on a group; answers the group as it is after. */
  const change = async (id: string, command: GroupCommand, context: { meta: { correlationId: string } }) =>
    toGroup((await env.groups.handle(id, command, runtime.metadata(context))).state as StoredGroup);
  const reply = async (id: string, command: GroupCommand, context: { meta: { correlationId: string } }) =>
    ok(await change(id, command, context));

  runtime.router.on(
    groups.create,
    async (input, context) => {
      const tenant = await tenantOf(input);
      await checkMembers(tenant, input.members);
      const id = randomUUID();
      const command: GroupCommand = {
        type: 'CreateGroup',
        data: { tenant, id, display_name: input.display_name, members: input.members, at: at() },
      };
      return created(await change(id, command, context));
    },
    createGroupRequestSchema,
  );
  runtime.router.on(
    groups.get,
    async (input) => {
      const tenant = await tenantOf(input);
      const group = await view.documents.get(input.id);
      const visible = group?.status === 'active' && group.scope === `${tenant.organization_id}:${tenant.environment}`;
      return ok({ group: visible ? toGroup(group) : null });
    },
    groupIdRequestSchema,
  );
  runtime.router.on(
    groups.list,
    async (input) => {
      const tenant = await tenantOf(input);
      const page = resolvePage(input);
      const filter: Record<string, unknown> = { scope: `${tenant.organization_id}:${tenant.environment}` };
      if (input.display_name !== undefined) filter.display_name = input.display_name;
      if (input.member !== undefined) filter.members = input.member;
      const [documents, total] = await Promise.all([
        view.documents.find(filter, { sort: { inserted_at: 1 }, skip: page.skip, limit: page.perPage }),
        view.documents.count(filter),
      ]);
      return ok(
        paginate(
          documents.map((document) => toGroup(document as StoredGroup)),
          total,
          page,
        ),
      );
    },
    listGroupsRequestSchema,
  );
  runtime.router.on(
    groups.update,
    async (input, context) => {
      const tenant = await tenantOf(input);
      if (input.members !== undefined) await checkMembers(tenant, input.members);
      const command: GroupCommand = {
        type: 'UpdateGroup',
        data: {
          tenant,
          at: at(),
          ...(input.display_name !== undefined ? { display_name: input.display_name } : {}),
          ...(input.members !== undefined ? { members: input.members } : {}),
        },
      };
      return reply(input.id, command, context);
    },
    updateGroupRequestSchema,
  );
  runtime.router.on(
    groups.addMembers,
    async (input, context) => {
      const tenant = await tenantOf(input);
      await checkMembers(tenant, input.members);
      return reply(input.id, { type: 'AddGroupMembers', data: { tenant, members: input.members, at: at() } }, context);
    },
    groupMembersRequestSchema,
  );
  runtime.router.on(
    groups.removeMembers,
    async (input, context) =>
      reply(
        input.id,
        { type: 'RemoveGroupMembers', data: { tenant: await tenantOf(input), members: input.members, at: at() } },
        context,
      ),
    groupMembersRequestSchema,
  );
  runtime.router.on(
    groups.delete,
    async (input, context) => {
      const tenant = await tenantOf(input);
      const resource = await change(input.id, { type: 'DeleteGroup', data: { tenant, reason: 'api', at: at() } }, context);
      return ok({ deleted: true, resource });
    },
    groupIdRequestSchema,
  );
  return env;
}
