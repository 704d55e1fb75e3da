import { deciderSpecification } from '@sesame/platform/testing';
import type { WebhookDomainEvent, WebhookSettings } from '@sesame/contracts';
import { fold } from '@sesame/platform';
import { signingKeys, webhookDecider } from './webhook.decider';
import type { WebhookCommand } from './webhook.decider';

const spec = deciderSpecification(webhookDecider);
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-01T01:00:00.000Z';
const settings = { name: 'CRM', active: true, event_codes: ['user.created'], target_url: 'https://hooks.example.com/in' };
/** The id identity answers for a live organization of that domain (none without a scope or for an unknown one). */
const idOf = (domain: string | null | undefined) => (domain && domain !== 'unknown-org' ? `org-${domain}` : null);
const create = (target_problem: string | null = null, scope: { organization_domain?: string | null } = {}): WebhookCommand => ({
  type: 'CreateWebhook',
  data: {
    ...settings,
    ...scope,
    id: 'webhook_1',
    environment: 'sandbox',
    signature_key: 'sealed-1',
    target_problem,
    organization_found: scope.organization_domain !== 'unknown-org',
    organization_id: idOf(scope.organization_domain),
    at,
  },
});
const createdFor = (
  organization_domain: string | null,
  when = at,
  organization_id = idOf(organization_domain),
): WebhookDomainEvent => ({
  type: 'WebhookCreated',
  data: {
    ...settings,
    organization_domain,
    id: 'webhook_1',
    organization_id,
    environment: 'sandbox',
    signature_key: { sealed: 'sealed-1', expires_at: null },
    at: when,
  },
});
const created = createdFor(null);
const update = (changes: Partial<WebhookSettings>, when = later, organization_found = true): WebhookCommand => ({
  type: 'UpdateWebhook',
  data: { changes, target_problem: null, organization_found, organization_id: idOf(changes.organization_domain), at: when },
});
/** Identity deleted the organization `domain` at `deletedAt`; the reaction runs at `handledAt`. */
const organizationDeleted = (domain: string, deletedAt: string, handledAt = deletedAt): WebhookCommand => ({
  type: 'DeleteWebhookOfDeletedOrganization',
  data: {
    reason: 'organization_deleted',
    organization_id: `org-${domain}`,
    at: handledAt,
    domain,
  },
});
const deleted: WebhookDomainEvent = { type: 'WebhookDeleted', data: { at: later } };

describe('webhook decider', () => {
  it('creates a webhook with its sealed signature key', () => {
    spec.given([]).when(create()).then([created]);
    spec.given([created]).when(create()).thenFails({ kind: 'error', code: 'conflict' });
  });

  it('refuses a target the environment may not call', () => {
    spec
      .given([])
      .when(create('must not resolve to a loopback, link-local or private address'))
      .thenFails({ kind: 'fields', fields: { target_url: ['must not resolve to a loopback, link-local or private address'] } });
  });

  it('records only the settings that change', () => {
    spec
      .given([created])
      .when(update({ active: false, name: 'CRM' }))
      .then([{ type: 'WebhookUpdated', data: { changes: { active: false }, at: later } }]);
    spec
      .given([created])
      .when(update({ event_codes: ['user.created'] }))
      .thenNothingHappens();
  });

  it('answers not found for a deleted or unknown webhook', () => {
    spec
      .given([created, deleted])
      .when({ type: 'DeleteWebhook', data: { at: later } })
      .thenFails({
        kind: 'error',
        code: 'resource_not_found',
      });
    spec
      .given([])
      .when(update({ active: false }, at))
      .thenFails({ kind: 'error', code: 'resource_not_found' });
  });

  it('scopes a webhook to a live organization of its environment, and answers not found for another one', () => {
    spec
      .given([])
      .when(create(null, { organization_domain: 'acme' }))
      .then([createdFor('acme')]);
    spec
      .given([])
      .when(create(null, { organization_domain: null }))
      .then([created]);
    spec
      .given([])
      .when(create(null, { organization_domain: 'unknown-org' }))
      .thenFails({ kind: 'error', code: 'resource_not_found' });
    expect(fold(webhookDecider, [createdFor('acme')])).toMatchObject({
      organization_domain: 'acme',
      organization_id: 'org-acme',
    });
    expect(fold(webhookDecider, [created])).toMatchObject({ organization_domain: null });
  });

  it('changes the scope by update, checked as at creation; null scopes it to every organization again', () => {
    const rescoped: WebhookDomainEvent = {
      type: 'WebhookUpdated',
      data: { changes: { organization_domain: 'globex' }, organization_id: 'org-globex', at: later },
    };
    spec
      .given([createdFor('acme')])
      .when(update({ organization_domain: 'globex' }))
      .then([rescoped]);
    expect(fold(webhookDecider, [createdFor('acme'), rescoped])).toMatchObject({
      organization_domain: 'globex',
      organization_id: 'org-globex',
    });
    spec
      .given([createdFor('acme')])
      .when(update({ organization_domain: 'unknown-org' }, later, false))
      .thenFails({ kind: 'error', code: 'resource_not_found' });
    spec
      .given([createdFor('acme')])
      .when(update({ organization_domain: null }))
      .then([{ type: 'WebhookUpdated', data: { changes: { organization_domain: null }, organization_id: null, at: later } }]);
    spec
      .given([createdFor('acme')])
      .when(update({ organization_domain: 'acme' }))
      .thenNothingHappens();
    spec
      .given([createdFor('acme')])
      .when(update({ name: 'CRM' }))
      .thenNothingHappens();
  });

  it('is deleted with the organization it is scoped to, in its environment, and only with that one', () => {
    const removed: WebhookDomainEvent = { type: 'WebhookDeleted', data: { at: later, reason: 'organization_deleted' } };
    spec
      .given([createdFor('acme')])
      .when(organizationDeleted('acme', at, later))
      .then([removed]);
    spec
      .given([createdFor('acme')])
      .when(organizationDeleted('globex', at, later))
      .thenNothingHappens();
    spec
      .given([created])
      .when(organizationDeleted('acme', at, later))
      .thenNothingHappens();
    spec
      .given([createdFor('acme'), removed])
      .when(organizationDeleted('acme', at, later))
      .thenNothingHappens();
  });

  it('leaves alone a webhook scoped to a new organization of the same domain (another id; late or redelivered deletion)', () => {
    const deletedAt = '2026-01-01T00:30:00.000Z';
    spec
      .given([createdFor('acme', later, 'org-acme-2')])
      .when(organizationDeleted('acme', deletedAt, later))
      .thenNothingHappens();
    // The clock does not decide: scoped at an instant before the deletion, it is still not the deleted organization's.
    spec
      .given([createdFor('acme', at, 'org-acme-2')])
      .when(organizationDeleted('acme', deletedAt, later))
      .thenNothingHappens();
    const rescoped: WebhookDomainEvent = {
      type: 'WebhookUpdated',
      data: { changes: { organization_domain: 'acme' }, organization_id: 'org-acme-2', at: later },
    };
    spec
      .given([createdFor('globex'), rescoped])
      .when(organizationDeleted('acme', deletedAt, later))
      .thenNothingHappens();
  });

  it('is deleted with the organization of its domain when scoped before scopes named their organization', () => {
    const { organization_id: _id, ...legacy } = (createdFor('acme') as Extract<WebhookDomainEvent, { type: 'WebhookCreated' }>)
      .data;
    spec
      .given([{ type: 'WebhookCreated', data: legacy }])
      .when(organizationDeleted('acme', at, later))
      .then([{ type: 'WebhookDeleted', data: { at: later, reason: 'organization_deleted' } }]);
  });

  it('rotates the signature key with an overlap: both keys sign until the previous one expires', () => {
    const rotated: WebhookDomainEvent = {
      type: 'WebhookSignatureKeyRotated',
      data: { signature_key: { sealed: 'sealed-2', expires_at: null }, previous_expires_at: '2026-01-02T00:00:00.000Z', at },
    };
    spec
      .given([created])
      .when({ type: 'RotateSignatureKey', data: { signature_key: 'sealed-2', overlap_ms: 86_400_000, at } })
      .then([rotated]);
    const state = fold(webhookDecider, [created, rotated]);
    expect(signingKeys(state, later)).toEqual(['sealed-2', 'sealed-1']);
    expect(signingKeys(state, '2026-01-02T00:00:00.001Z')).toEqual(['sealed-2']);
  });
});
