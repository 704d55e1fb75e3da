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
});
