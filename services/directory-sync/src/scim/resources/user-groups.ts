import type { ScimResourceData } from '@sesame/contracts';
import type { ScimObject } from '../protocol/filter';
import { resourceEndpoint } from './scim-representation';

/**
 * The `groups` attribute of users (RFC 7643 section 4.1.2, readOnly): derived from the live groups'
 * `members`, never stored on the user. Each user id maps to the groups that list it, in the order
 * given (oldest first), as `{ value, $ref, display, type: "direct" }` (members are users only, so
 * every membership is direct).
 */
export function groupsByMember(groups: ScimResourceData[], baseUrl: string): Map<string, ScimObject[]> {
  const byMember = new Map<string, ScimObject[]>();
  for (const group of groups) {
    if (group.kind !== 'Group' || !Array.isArray(group.resource.members)) continue;
    const entry = {
      value: group.id,
      $ref: `${baseUrl}/${resourceEndpoint('Group')}/${group.id}`,
      display: group.resource.displayName,
      type: 'direct',
    };
    const memberIds = new Set((group.resource.members as ScimObject[]).map((member) => member.value));
    for (const memberId of memberIds) {
      if (typeof memberId !== 'string') continue;
      const memberOf = byMember.get(memberId) ?? [];
      memberOf.push({ ...entry });
      byMember.set(memberId, memberOf);
    }
  }
  return byMember;
}
