import type { DirectorySyncData, ScimResourceData, ScimResourceKind } from '@sesame/contracts';
import type { ScimObject } from '../protocol/filter';
import type { GroupProvisioning } from './group-provisioning';
import type { ScimResourceStore } from './scim-resource-store';
import type { UserProvisioning } from './user-provisioning';

/** What a change of a SCIM resource does to the Sesame user or group it provisions. */
export interface ProvisioningRule {
  /** The resource to store (group members reduced to the directory's users) and its Sesame link. */
  provision(
    directory: DirectorySyncData,
    resource: ScimObject,
    linkedId: string | null,
    correlationId: string,
  ): Promise<{ resource: ScimObject; linkedId: string | null }>;
  deprovision(directory: DirectorySyncData, deleted: ScimResourceData, correlationId: string): Promise<void>;
}

export function provisioningRules(
  store: ScimResourceStore,
  users: UserProvisioning,
  groups: GroupProvisioning,
): Record<ScimResourceKind, ProvisioningRule> {
  return {
    User: {
      provision: async (directory, resource, linkedId, correlationId) => ({
        resource,
        linkedId: await users.sync(directory, resource, linkedId, correlationId),
      }),
      deprovision: async (directory, deleted, correlationId) => {
        if (!deleted.linked_id) return;
        const others = await store.list(directory, 'User', {
          'scim_resource.linked_id': deleted.linked_id,
          _id: { $ne: deleted.id },
        });
        await users.remove(directory, deleted.linked_id, others.length > 0, correlationId);
      },
    },
    Group: {
      provision: async (directory, resource, linkedId, correlationId) => {
        const { members, userIds } = await directoryMembers(store, directory, resource.members);
        const next = { ...resource, ...(resource.members === undefined ? {} : { members }) };
        const displayName = String(resource.displayName);
        return { resource: next, linkedId: await groups.sync(directory, displayName, userIds, linkedId, correlationId) };
      },
      deprovision: async (directory, deleted, correlationId) => {
        if (deleted.linked_id) await groups.remove(directory, deleted.linked_id, correlationId);
      },
    },
  };
}

/**
 * The members that are users of this directory (others are left out: a provider may push a
 * group before its users, and Microsoft's reference tests add ids that exist nowhere), each
 * once, and the Sesame users they provision.
 */
async function directoryMembers(
  store: ScimResourceStore,
  directory: DirectorySyncData,
  members: unknown,
): Promise<{ members: ScimObject[]; userIds: string[] }> {
  const list = Array.isArray(members) ? (members as ScimObject[]) : [];
  const seen = new Set<string>();
  const kept: ScimObject[] = [];
  const userIds: string[] = [];
  for (const member of list) {
    const value = typeof member.value === 'string' ? member.value : null;
    if (!value || seen.has(value)) continue;
    const user = await store.find(directory, 'User', value);
    if (!user) continue;
    seen.add(value);
    kept.push(member);
    if (user.linked_id) userIds.push(user.linked_id);
  }
  return { members: kept, userIds };
}
