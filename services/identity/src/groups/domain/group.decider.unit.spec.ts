import { deciderSpecification } from '@sesame/platform/testing';
import type { GroupEvent } from '@sesame/contracts';
import { groupDecider } from './group.decider';
import type { GroupCommand } from './group.decider';
import type { Tenant } from '../../users/domain/user.decider';

const spec = deciderSpecification(groupDecider);
const tenant: Tenant = {
  organization_id: 'org-1',
  organization_domain: 'acme',
  allowed_email_domains: [],
  environment: 'sandbox',
};
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const tenantData = (when = at) => ({
  organization_domain: 'acme',
  organization_id: 'org-1',
  environment: 'sandbox' as const,
  at: when,
});
const group = { id: 'g1', display_name: 'Eng', members: ['u1', 'u2'], inserted_at: at, updated_at: at };
const created: GroupEvent = { type: 'GroupCreated', data: { ...tenantData(), group } };

describe('group decider', () => {
  it('creates a group with distinct members', () => {
    spec
      .given([])
      .when({ type: 'CreateGroup', data: { tenant, id: 'g1', display_name: 'Eng', members: ['u1', 'u2', 'u1'], at } })
      .then([created]);
  });

  it('renames and replaces members in one commit, and does nothing when nothing changes', () => {
    const update: GroupCommand = {
      type: 'UpdateGroup',
      data: { tenant, display_name: 'Platform', members: ['u2', 'u3'], at: later },
    };
    spec
      .given([created])
      .when(update)
      .then([
        {
          type: 'GroupRenamed',
          data: {
            ...tenantData(later),
            group: { ...group, display_name: 'Platform', updated_at: later },
            previous_display_name: 'Eng',
          },
        },
        {
          type: 'GroupMembersRemoved',
          data: {
            ...tenantData(later),
            group: { ...group, display_name: 'Platform', members: ['u2'], updated_at: later },
            members: ['u1'],
          },
        },
        {
          type: 'GroupMembersAdded',
          data: {
            ...tenantData(later),
            group: { ...group, display_name: 'Platform', members: ['u2', 'u3'], updated_at: later },
            members: ['u3'],
          },
        },
      ]);
    spec
      .given([created])
      .when({ type: 'UpdateGroup', data: { tenant, display_name: 'Eng', members: ['u2', 'u1'], at: later } })
      .thenNothingHappens();
  });

  it('adds and removes only real changes', () => {
    spec
      .given([created])
      .when({ type: 'AddGroupMembers', data: { tenant, members: ['u2', 'u3'], at: later } })
      .then([
        {
          type: 'GroupMembersAdded',
          data: { ...tenantData(later), group: { ...group, members: ['u1', 'u2', 'u3'], updated_at: later }, members: ['u3'] },
        },
      ]);
    spec
      .given([created])
      .when({ type: 'AddGroupMembers', data: { tenant, members: ['u1'], at: later } })
      .thenNothingHappens();
    spec
      .given([created])
      .when({ type: 'RemoveGroupMembers', data: { tenant, members: ['u9'], at: later } })
      .thenNothingHappens();
  });

  it('answers not found for an unknown or deleted group and for another tenant', () => {
    const deleted: GroupEvent = { type: 'GroupDeleted', data: { ...tenantData(later), group, reason: 'api' } };
    spec
      .given([])
      .when({ type: 'DeleteGroup', data: { tenant, reason: 'api', at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
    spec
      .given([created, deleted])
      .when({ type: 'AddGroupMembers', data: { tenant, members: ['u3'], at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
    spec
      .given([created])
      .when({ type: 'DeleteGroup', data: { tenant: { ...tenant, environment: 'production' }, reason: 'api', at } })
      .thenFails({
        kind: 'error',
        code: 'resource_not_found',
      });
  });
});
