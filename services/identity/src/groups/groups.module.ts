import {
  createGroupRequestSchema,
  groupIdRequestSchema,
  groupMembersRequestSchema,
  listGroupsRequestSchema,
  subjects,
  updateGroupRequestSchema,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import type { UsersDeps } from '../users/users.deps';
import { groupAggregate } from './commands/group.aggregate';
import {
  addGroupMembersHandler,
  createGroupHandler,
  deleteGroupHandler,
  removeGroupMembersHandler,
  updateGroupHandler,
} from './commands/group.handlers';
import type { GroupsDeps } from './groups.deps';
import { groupsView } from './projections/groups.projection';
import { getGroupHandler, listGroupsHandler } from './queries/group.queries';

/** Groups for directory sync: service subjects only (the SCIM issue gives them an API). */
export function registerGroups(runtime: ServiceRuntime, organizations: OrganizationsDeps, users: UsersDeps): GroupsDeps {
  const deps: GroupsDeps = {
    groups: runtime.aggregate(groupAggregate),
    view: runtime.projections.register(new AggregateView(groupsView, runtime.readModels, runtime.eventStore)),
    metadata: (context) => runtime.metadata(context),
    organizations,
    users,
    now: () => new Date(),
  };
  const groups = subjects.identity.groups;
  runtime.router.on(groups.create, createGroupHandler(deps), createGroupRequestSchema);
  runtime.router.on(groups.get, getGroupHandler(deps), groupIdRequestSchema);
  runtime.router.on(groups.list, listGroupsHandler(deps), listGroupsRequestSchema);
  runtime.router.on(groups.update, updateGroupHandler(deps), updateGroupRequestSchema);
  runtime.router.on(groups.addMembers, addGroupMembersHandler(deps), groupMembersRequestSchema);
  runtime.router.on(groups.removeMembers, removeGroupMembersHandler(deps), groupMembersRequestSchema);
  runtime.router.on(groups.delete, deleteGroupHandler(deps), groupIdRequestSchema);
  return deps;
}
