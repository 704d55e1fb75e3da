import type { MagicLinkConnectionEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { magicLinkConnectionDecider } from './magic-link-connection.decider';
import type { MagicLinkConnectionCommand } from './magic-link-connection.decider';

const spec = deciderSpecification(magicLinkConnectionDecider);
const at = '2026-01-01T00:00:00.000Z';
const tenant = { organization_id: 'org-1', organization_domain: 'hooli', environment: 'sandbox' as const };
const connection = { id: 'c1', active: true, find_or_create_user: false, sign_in_template_id: null };
const created: MagicLinkConnectionEvent = { type: 'MagicLinkConnectionCreated', data: { ...tenant, connection, at } };
const create = (fields: Record<string, unknown> = {}): MagicLinkConnectionCommand => ({
  type: 'CreateMagicLinkConnection',
  data: { tenant, id: 'c1', fields, at },
});
const update = (changes: Record<string, unknown>): MagicLinkConnectionCommand => ({
  type: 'UpdateMagicLinkConnection',
  data: { tenant, changes, at },
});

describe('magic link connection decider', () => {
  it('creates a connection, active, find_or_create_user false, no template by default', () => {
    spec.given([]).when(create()).then([created]);
    spec
      .given([])
      .when(create({ active: false, find_or_create_user: true, sign_in_template_id: 'tpl' }))
      .then([
        {
          type: 'MagicLinkConnectionCreated',
          data: { ...tenant, connection: { id: 'c1', active: false, find_or_create_user: true, sign_in_template_id: 'tpl' }, at },
        },
      ]);
  });

  it('creates it once', () => {
    spec
      .given([created])
      .when(create())
      .thenFails({ kind: 'fields', fields: { org_domain: ['already has a magic link connection'] } });
  });

  it('updates the given fields only, and nothing when nothing changes', () => {
    spec
      .given([created])
      .when(update({ find_or_create_user: true }))
      .then([
        { type: 'MagicLinkConnectionUpdated', data: { ...tenant, connection: { ...connection, find_or_create_user: true }, at } },
      ]);
    spec
      .given([created])
      .when(update({ active: true, sign_in_template_id: undefined }))
      .thenNothingHappens();
    spec
      .given([
        { type: 'MagicLinkConnectionUpdated', data: { ...tenant, connection: { ...connection, sign_in_template_id: 'x' }, at } },
      ])
      .when(update({ sign_in_template_id: null }))
      .then([{ type: 'MagicLinkConnectionUpdated', data: { ...tenant, connection, at } }]);
  });

  it('cannot update a connection that does not exist', () => {
    spec
      .given([])
      .when(update({ active: false }))
      .thenFails({ kind: 'error', code: 'resource_not_found' });
  });
  describe('when its organization is deleted', () => {
    const later = '2026-01-03T00:00:00.000Z';
    const remove: MagicLinkConnectionCommand = {
      type: 'DeleteMagicLinkConnection',
      data: { reason: 'organization_deleted', organization_id: 'org-1', at: later },
    };
    const deleted: MagicLinkConnectionEvent = {
      type: 'MagicLinkConnectionDeleted',
      data: { ...tenant, reason: 'organization_deleted', at: later },
    };
    const updatedLater: MagicLinkConnectionEvent = {
      type: 'MagicLinkConnectionUpdated',
      data: { ...tenant, connection: { ...connection, active: false }, at: later },
    };
    const ofNewOrganization: MagicLinkConnectionEvent = {
      type: 'MagicLinkConnectionCreated',
      data: { ...tenant, organization_id: 'org-2', connection, at: later },
    };

    it('removes the connection of the deleted organization, even when changed since', () => {
      spec.given([created]).when(remove).then([deleted]);
      spec.given([created, updatedLater]).when(remove).then([deleted]);
    });

    it('does nothing again on a redelivered deletion, nor without a connection', () => {
      spec.given([created, deleted]).when(remove).then([]);
      spec.given([]).when(remove).then([]);
    });

    it('leaves alone the connection of another organization, such as one of the same domain created since (another id), however late', () => {
      spec.given([ofNewOrganization]).when(remove).then([]);
      // The clock does not decide: created at an instant before the deletion, it is still not the deleted organization's.
      spec
        .given([{ ...ofNewOrganization, data: { ...ofNewOrganization.data, at } }])
        .when(remove)
        .then([]);
    });

    it('lets the connection be created again', () => spec.given([created, deleted]).when(create()).then([created]));
  });
});
