import type { RelayData, RelayEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { relayDecider } from './relay.decider';

const spec = deciderSpecification(relayDecider);
const at = '2026-01-01T00:00:00.000Z';
const relay: RelayData = {
  id: 'r1',
  environment: 'sandbox',
  organization_id: 'org-p',
  partner_domain: 'partner',
  partner_redirect_uri: 'https://partner.example.net/cb',
  jit: false,
  session_duration_minutes: 60,
  inserted_at: at,
};
const created: RelayEvent = { type: 'RelayCreated', data: { relay, at } };

describe('relay decider', () => {
  it('creates a relay to a partner organization without allowed email domains', () => {
    spec
      .given([])
      .when({ type: 'CreateRelay', data: { relay, partner_allowed_email_domains: [] } })
      .then([created]);
    spec
      .given([])
      .when({ type: 'CreateRelay', data: { relay, partner_allowed_email_domains: ['partner.com'] } })
      .thenFails({ kind: 'fields', fields: { partner_domain: ['must be an organization without allowed email domains'] } });
  });

  it('updates the given fields, nothing when nothing changes', () => {
    spec
      .given([created])
      .when({ type: 'UpdateRelay', data: { changes: { jit: true, session_duration_minutes: 30 }, at } })
      .then([{ type: 'RelayUpdated', data: { relay: { ...relay, jit: true, session_duration_minutes: 30 }, at } }]);
    spec
      .given([created])
      .when({ type: 'UpdateRelay', data: { changes: { jit: false }, at } })
      .thenNothingHappens();
  });

  it('replaces the source organizations, each once; nothing when they do not change', () => {
    const withSources = { ...relay, source_organizations: ['acme'] };
    const sourced: RelayEvent = { type: 'RelayCreated', data: { relay: withSources, at } };
    spec
      .given([sourced])
      .when({ type: 'UpdateRelay', data: { changes: { source_organizations: ['acme', 'globex', 'acme'] }, at } })
      .then([{ type: 'RelayUpdated', data: { relay: { ...withSources, source_organizations: ['acme', 'globex'] }, at } }]);
    spec
      .given([sourced])
      .when({ type: 'UpdateRelay', data: { changes: { source_organizations: ['acme'] }, at } })
      .thenNothingHappens();
    spec
      .given([created])
      .when({ type: 'UpdateRelay', data: { changes: { source_organizations: ['acme'] }, at } })
      .then([{ type: 'RelayUpdated', data: { relay: withSources, at } }]);
  });

  it('deletes a relay; an unknown or deleted one is not found', () => {
    spec
      .given([created])
      .when({ type: 'DeleteRelay', data: { at } })
      .then([{ type: 'RelayDeleted', data: { relay, at } }]);
    const deleted: RelayEvent = { type: 'RelayDeleted', data: { relay, at } };
    spec
      .given([created, deleted])
      .when({ type: 'DeleteRelay', data: { at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
    spec
      .given([])
      .when({ type: 'UpdateRelay', data: { changes: {}, at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
  });

  describe('when an organization is deleted', () => {
    const later = '2026-02-01T00:00:00.000Z';
    const deletion = { reason: 'organization_deleted' as const, at: later };
    /** The deletion of the organization `domain` (the partner is `org-p`). */
    const forget = (domain: string, environment: 'sandbox' | 'production' = 'sandbox') => ({
      type: 'ForgetOrganization' as const,
      data: { domain, environment, deletion: { ...deletion, organization_id: domain === 'partner' ? 'org-p' : `org-${domain}` } },
    });
    const sourced = { ...relay, source_organizations: ['acme', 'globex'] };
    const createdSourced: RelayEvent = { type: 'RelayCreated', data: { relay: sourced, at } };

    it('deletes the relay into it', () => {
      spec
        .given([createdSourced])
        .when(forget('partner'))
        .then([{ type: 'RelayDeleted', data: { relay: sourced, at: later } }]);
    });

    it('stops naming it among the source organizations', () => {
      spec
        .given([createdSourced])
        .when(forget('acme'))
        .then([{ type: 'RelayUpdated', data: { relay: { ...sourced, source_organizations: ['globex'] }, at: later } }]);
      spec.given([createdSourced]).when(forget('initech')).thenNothingHappens();
    });

    it("leaves the other environment's relays alone (its organization of the same domain is another)", () => {
      spec.given([createdSourced]).when(forget('partner', 'production')).thenNothingHappens();
      spec.given([createdSourced]).when(forget('acme', 'production')).thenNothingHappens();
    });

    it('given a relay into a later organization of the same domain (another id; a late or redelivered deletion), leaves it alone', () => {
      const into = (inserted_at: string): RelayEvent => ({
        type: 'RelayCreated',
        data: { relay: { ...sourced, organization_id: 'org-p2', inserted_at }, at: inserted_at },
      });
      spec
        .given([into('2026-03-01T00:00:00.000Z')])
        .when(forget('partner'))
        .thenNothingHappens();
      // The clock does not decide: a relay into another organization is not the deleted one's.
      spec
        .given([into(at)])
        .when(forget('partner'))
        .thenNothingHappens();
    });

    it('given a re-created source organization of the same domain (another id; a late or redelivered deletion), leaves it named', () => {
      const ids = { acme: 'org-acme', globex: 'org-globex' };
      const createdWithIds: RelayEvent = {
        type: 'RelayCreated',
        data: { relay: { ...sourced, source_organization_ids: ids }, at },
      };
      spec
        .given([createdWithIds])
        .when(forget('acme'))
        .then([
          {
            type: 'RelayUpdated',
            data: {
              relay: { ...sourced, source_organizations: ['globex'], source_organization_ids: { globex: 'org-globex' } },
              at: later,
            },
          },
        ]);
      const recreated = { acme: 'org-acme2', globex: 'org-globex' };
      spec
        .given([createdWithIds])
        .when({
          type: 'UpdateRelay',
          data: { changes: { source_organizations: ['acme', 'globex'] }, source_organization_ids: recreated, at },
        })
        .then([{ type: 'RelayUpdated', data: { relay: { ...sourced, source_organization_ids: recreated }, at } }]);
      const resourced: RelayEvent = {
        type: 'RelayUpdated',
        data: { relay: { ...sourced, source_organization_ids: recreated }, at },
      };
      spec.given([createdWithIds, resourced]).when(forget('acme')).thenNothingHappens();
      // The clock does not decide: sources set before the deletion that name the later organization stay.
      const before: RelayEvent = {
        type: 'RelayCreated',
        data: { relay: { ...sourced, source_organization_ids: recreated }, at },
      };
      spec.given([before]).when(forget('acme')).thenNothingHappens();
    });

    it('given sources recorded without their ids (older events), forgets the source by its domain', () => {
      const after = '2026-03-01T00:00:00.000Z';
      const createdAfter: RelayEvent = { type: 'RelayCreated', data: { relay: { ...sourced, inserted_at: after }, at: after } };
      spec
        .given([createdAfter])
        .when(forget('acme'))
        .then([
          {
            type: 'RelayUpdated',
            data: { relay: { ...sourced, inserted_at: after, source_organizations: ['globex'] }, at: later },
          },
        ]);
      const partial: RelayEvent = {
        type: 'RelayCreated',
        data: { relay: { ...sourced, source_organization_ids: { globex: 'org-globex' } }, at },
      };
      spec
        .given([partial])
        .when(forget('acme'))
        .then([
          {
            type: 'RelayUpdated',
            data: {
              relay: { ...sourced, source_organizations: ['globex'], source_organization_ids: { globex: 'org-globex' } },
              at: later,
            },
          },
        ]);
    });

    it('does nothing for a relay already deleted', () => {
      spec
        .given([createdSourced, { type: 'RelayDeleted', data: { relay: sourced, at } }])
        .when(forget('partner'))
        .thenNothingHappens();
    });
  });
});
