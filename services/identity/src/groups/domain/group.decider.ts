import { catalogueError } from '@sesame/contracts';
import type { Environment, Group, GroupData, GroupEvent } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import type { Tenant } from '../../users/domain/user.decider';

export interface GroupRecord extends GroupData {
  organization_domain: string;
  organization_id: string;
  environment: Environment;
  scope: string;
}
export type GroupState = { status: 'empty' } | ({ status: 'active' | 'deleted' } & GroupRecord);
export type StoredGroup = Exclude<GroupState, { status: 'empty' }>;

export type GroupCommand =
  | { type: 'CreateGroup'; data: { tenant: Tenant; id: string; display_name: string; members: string[]; at: string } }
  /** Renames and/or replaces the member list, in one atomic commit. */
  | { type: 'UpdateGroup'; data: { tenant: Tenant; display_name?: string; members?: string[]; at: string } }
  | { type: 'AddGroupMembers'; data: { tenant: Tenant; members: string[]; at: string } }
  | { type: 'RemoveGroupMembers'; data: { tenant: Tenant; members: string[]; at: string } }
  | { type: 'DeleteGroup'; data: { tenant: Tenant; reason: 'api' | 'organization_deleted'; at: string } };

export const groupTenant = (group: StoredGroup): Tenant => ({
  organization_id: group.organization_id,
  organization_domain: group.organization_domain,
  allowed_email_domains: [],
  environment: group.environment,
});

export const toGroup = (state: GroupRecord): Group => ({
  __type__: 'Group',
  __domain__: state.organization_domain,
  __environment__: state.environment,
  id: state.id,
  display_name: state.display_name,
  members: state.members,
  inserted_at: state.inserted_at,
  updated_at: state.updated_at,
});

const tenantData = (tenant: Tenant, at: string) => ({
  organization_domain: tenant.organization_domain,
  organization_id: tenant.organization_id,
  environment: tenant.environment,
  at,
});
const groupData = (state: GroupRecord): GroupData => ({
  id: state.id,
  display_name: state.display_name,
  members: state.members,
  inserted_at: state.inserted_at,
  updated_at: state.updated_at,
});

function update(data: Extract<GroupCommand, { type: 'UpdateGroup' }>['data'], current: StoredGroup): GroupEvent[] {
  const { tenant, at } = data;
  const events: GroupEvent[] = [];
  let group = groupData(current);
  if (data.display_name !== undefined && data.display_name !== group.display_name) {
    const previous = group.display_name;
    group = { ...group, display_name: data.display_name, updated_at: at };
    events.push({ type: 'GroupRenamed', data: { ...tenantData(tenant, at), group, previous_display_name: previous } });
  }
  if (data.members !== undefined) {
    const wanted = [...new Set(data.members)];
    const removed = group.members.filter((member) => !wanted.includes(member));
    if (removed.length > 0) {
      group = { ...group, members: group.members.filter((member) => wanted.includes(member)), updated_at: at };
      events.push({ type: 'GroupMembersRemoved', data: { ...tenantData(tenant, at), group, members: removed } });
    }
    const added = wanted.filter((member) => !group.members.includes(member));
    if (added.length > 0) {
      group = { ...group, members: [...group.members, ...added], updated_at: at };
      events.push({ type: 'GroupMembersAdded', data: { ...tenantData(tenant, at), group, members: added } });
    }
  }
  return events;
}

function requireGroup(state: GroupState, tenant: Tenant): StoredGroup {
  if (state.status !== 'active' || state.organization_id !== tenant.organization_id || state.environment !== tenant.environment)
    fail(catalogueError('resource_not_found'));
  return state;
}

function decide(command: GroupCommand, state: GroupState): GroupEvent[] {
  const { tenant, at } = command.data;
  if (command.type === 'CreateGroup') {
    if (state.status !== 'empty') fail(catalogueError('conflict'));
    const members = [...new Set(command.data.members)];
    const group = { id: command.data.id, display_name: command.data.display_name, members, inserted_at: at, updated_at: at };
    return [{ type: 'GroupCreated', data: { ...tenantData(tenant, at), group } }];
  }
  const current = requireGroup(state, tenant);
  switch (command.type) {
    case 'UpdateGroup':
      return update(command.data, current);
    case 'AddGroupMembers': {
      const added = [...new Set(command.data.members)].filter((member) => !current.members.includes(member));
      if (added.length === 0) return [];
      const group = { ...groupData(current), members: [...current.members, ...added], updated_at: at };
      return [{ type: 'GroupMembersAdded', data: { ...tenantData(tenant, at), group, members: added } }];
    }
    case 'RemoveGroupMembers': {
      const removed = current.members.filter((member) => command.data.members.includes(member));
      if (removed.length === 0) return [];
      const group = {
        ...groupData(current),
        members: current.members.filter((member) => !removed.includes(member)),
        updated_at: at,
      };
      return [{ type: 'GroupMembersRemoved', data: { ...tenantData(tenant, at), group, members: removed } }];
    }
    case 'DeleteGroup':
      return [
        { type: 'GroupDeleted', data: { ...tenantData(tenant, at), group: groupData(current), reason: command.data.reason } },
      ];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

export const groupDecider: Decider<GroupState, GroupCommand, GroupEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide,
  evolve(state, event) {
    const { organization_domain, organization_id, environment } = event.data;
    const record = {
      ...event.data.group,
      organization_domain,
      organization_id,
      environment,
      scope: `${organization_id}:${environment}`,
    };
    switch (event.type) {
      case 'GroupCreated':
        return { status: 'active', ...record };
      case 'GroupRenamed':
      case 'GroupMembersAdded':
      case 'GroupMembersRemoved':
        return state.status === 'empty' ? state : { status: state.status, ...record };
      case 'GroupDeleted':
        return state.status === 'empty' ? state : { ...state, status: 'deleted', updated_at: event.data.at };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
