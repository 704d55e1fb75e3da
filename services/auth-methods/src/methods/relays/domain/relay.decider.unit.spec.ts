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
    const deletion = { reason: 'organization_deleted' as const, organization_deleted_at: later, at: later };
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

    it('given a source list set after the deletion (a late or redelivered one), leaves it alone', () => {
      const after = '2026-03-01T00:00:00.000Z';
      const createdAfter: RelayEvent = { type: 'RelayCreated', data: { relay: { ...sourced, inserted_at: after }, at: after } };
      spec.given([createdAfter]).when(forget('acme')).thenNothingHappens();
      const resourced: RelayEvent = {
        type: 'RelayUpdated',
        data: { relay: { ...sourced, source_organizations: ['acme'] }, at: after },
      };
      spec.given([createdSourced, resourced]).when(forget('acme')).thenNothingHappens();
      // An update that left the sources as they were does not count as setting them.
      const renamed: RelayEvent = { type: 'RelayUpdated', data: { relay: { ...sourced, jit: true }, at: after } };
      spec
        .given([createdSourced, renamed])
        .when(forget('acme'))
        .then([
          { type: 'RelayUpdated', data: { relay: { ...sourced, jit: true, source_organizations: ['globex'] }, at: later } },
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
