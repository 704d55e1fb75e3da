import { deciderSpecification } from '@sesame/platform/testing';
import type { DirectorySyncData, DirectorySyncEvent } from '@sesame/contracts';
import { directorySyncDecider } from './directory-sync.decider';
import type { DirectorySyncCommand } from './directory-sync.decider';

const spec = deciderSpecification(directorySyncDecider);
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-02T00:00:00.000Z';
const token = { hash: 'h1', hint: 'abcd', provider_key: 'dsk_1' };
const directory: DirectorySyncData = {
  id: 'd1',
  organization_id: 'org-1',
  organization_domain: 'acme',
  environment: 'sandbox',
  active: true,
  provider_type: 'okta',
  token,
  inserted_at: at,
  updated_at: at,
};
const create: DirectorySyncCommand = {
  type: 'CreateDirectorySync',
  data: {
    id: 'd1',
    organization_id: 'org-1',
    organization_domain: 'acme',
    environment: 'sandbox',
    provider_type: 'okta',
    active: true,
    token,
    at,
  },
};
const createdEvent: DirectorySyncEvent = {
  type: 'DirectorySyncCreated',
  data: {
    directory_sync: directory,
    event: {
      change: 'created',
      directory_sync_id: 'd1',
      provider: 'okta',
      resource: {
        id: 'd1',
        type: 'directory_sync',
        changes: { new_values: { active: true, provider_type: 'okta' }, previous_values: {} },
      },
    },
  },
};

describe('directory sync decider', () => {
  it('creates the directory sync of an organization and environment', () => {
    spec.given([]).when(create).then([createdEvent]);
  });

  it("refuses a second one: 409 'A directory sync already exists'", () => {
    spec.given([createdEvent]).when(create).thenFails({ kind: 'error', code: 'directory_sync_already_exists' });
  });

  it('records the changed fields with their previous values, and nothing when nothing changes', () => {
    spec
      .given([createdEvent])
      .when({ type: 'UpdateDirectorySync', data: { active: false, provider_type: 'okta', at: later } })
      .then([
        {
          type: 'DirectorySyncUpdated',
          data: {
            directory_sync: { ...directory, active: false, updated_at: later },
            event: {
              change: 'updated',
              directory_sync_id: 'd1',
              provider: 'okta',
              resource: {
                id: 'd1',
                type: 'directory_sync',
                changes: { new_values: { active: false }, previous_values: { active: true } },
              },
            },
          },
        },
      ]);
    spec
      .given([createdEvent])
      .when({ type: 'UpdateDirectorySync', data: { active: true, at: later } })
      .thenNothingHappens();
  });

  it('rotates the token: the new hash replaces the old one', () => {
    const rotated = { hash: 'h2', hint: 'wxyz', provider_key: 'dsk_2' };
    spec
      .given([createdEvent])
      .when({ type: 'UpdateDirectorySync', data: { token: rotated, at: later } })
      .then([
        {
          type: 'DirectorySyncTokenRotated',
          data: {
            directory_sync: { ...directory, token: rotated, updated_at: later },
            event: {
              change: 'updated',
              directory_sync_id: 'd1',
              provider: 'okta',
              resource: {
                id: 'd1',
                type: 'directory_sync',
                changes: {
                  new_values: { auth_secret_token: { hint: 'wxyz' } },
                  previous_values: { auth_secret_token: { hint: 'abcd' } },
                },
              },
            },
          },
        },
      ]);
  });

  it('answers not found when updating a directory sync that does not exist', () => {
    spec
      .given([])
      .when({ type: 'UpdateDirectorySync', data: { active: false, at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
  });
  describe('when its organization is deleted', () => {
    const remove = (organizationId: string | null = 'org-1'): DirectorySyncCommand => ({
      type: 'DeleteDirectorySync',
      data: { reason: 'organization_deleted', organization_id: organizationId, at: later },
    });
    const names = { directory_sync_id: 'd1', organization_domain: 'acme', environment: 'sandbox' as const };
    const deleted: DirectorySyncEvent = {
      type: 'DirectorySyncDeleted',
      data: { ...names, organization_id: 'org-1', reason: 'organization_deleted', at: later },
    };
    /** As stored before directory syncs named their organization. */
    const { organization_id: _id, ...unnamed } = directory;
    const legacy: DirectorySyncEvent = { ...createdEvent, data: { ...createdEvent.data, directory_sync: unnamed } };

    it('is deleted with it, once, and a new one of the same organization starts clean', () => {
      spec.given([createdEvent]).when(remove()).then([deleted]);
      spec.given([createdEvent, deleted]).when(remove()).then([]);
      spec.given([]).when(remove()).then([]);
      spec.given([createdEvent, deleted]).when(create).then([createdEvent]);
    });

    it('leaves alone the directory sync of another organization, such as one of the same domain created since (another id), however late', () => {
      spec.given([createdEvent]).when(remove('org-2')).then([]);
      spec.given([createdEvent]).when(remove(null)).then([]);
    });

    it('deletes one recorded before directory syncs named their organization with its domain’s organization', () => {
      const deletedLegacy: DirectorySyncEvent = {
        type: 'DirectorySyncDeleted',
        data: { ...names, reason: 'organization_deleted', at: later },
      };
      spec.given([legacy]).when(remove()).then([deletedLegacy]);
      spec.given([legacy]).when(remove(null)).then([deletedLegacy]);
    });
  });
});
