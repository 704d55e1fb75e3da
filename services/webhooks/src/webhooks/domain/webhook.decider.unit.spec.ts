import { deciderSpecification } from '@sesame/platform/testing';
import type { WebhookDomainEvent } from '@sesame/contracts';
import { fold } from '@sesame/platform';
import { signingKeys, webhookDecider } from './webhook.decider';
import type { WebhookCommand } from './webhook.decider';

const spec = deciderSpecification(webhookDecider);
const at = '2026-01-01T00:00:00.000Z';
const later = '2026-01-01T01:00:00.000Z';
const settings = { name: 'CRM', active: true, event_codes: ['user.created'], target_url: 'https://hooks.example.com/in' };
const create = (target_problem: string | null = null): WebhookCommand => ({
  type: 'CreateWebhook',
  data: { ...settings, id: 'webhook_1', environment: 'sandbox', signature_key: 'sealed-1', target_problem, at },
});
const created: WebhookDomainEvent = {
  type: 'WebhookCreated',
  data: { ...settings, id: 'webhook_1', environment: 'sandbox', signature_key: { sealed: 'sealed-1', expires_at: null }, at },
};
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
      .when({ type: 'UpdateWebhook', data: { changes: { active: false, name: 'CRM' }, target_problem: null, at: later } })
      .then([{ type: 'WebhookUpdated', data: { changes: { active: false }, at: later } }]);
    spec
      .given([created])
      .when({ type: 'UpdateWebhook', data: { changes: { event_codes: ['user.created'] }, target_problem: null, at: later } })
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
      .when({ type: 'UpdateWebhook', data: { changes: { active: false }, target_problem: null, at } })
      .thenFails({ kind: 'error', code: 'resource_not_found' });
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
