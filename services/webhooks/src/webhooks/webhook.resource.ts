import type { Webhook } from '@sesame/contracts';
import type { WebhookState } from './domain/webhook.decider';

/** The API representation of a webhook; its signature key only when just generated. */
export const toWebhook = (state: WebhookState, signatureKey: string | null = null): Webhook => ({
  __type__: 'Webhook',
  __domain__: state.organization_domain ?? null,
  __environment__: state.environment,
  id: state.id,
  name: state.name,
  active: state.active,
  event_codes: state.event_codes,
  target_url: state.target_url,
  organization_domain: state.organization_domain ?? null,
  signature_key: signatureKey,
  inserted_at: state.inserted_at,
  updated_at: state.updated_at,
});
