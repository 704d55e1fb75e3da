import type { WebhookDomainEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { webhookDecider } from '../domain/webhook.decider';
import type { WebhookState } from '../domain/webhook.decider';

export const webhookStreamCategory = 'webhook';
export const webhookStream = (id: string) => streamName(webhookStreamCategory, id);

/** `webhooks_v2`: one document per live webhook (signature keys sealed), with its organization scope. */
export const webhooksView: AggregateViewDefinition<WebhookState, WebhookDomainEvent> = {
  name: 'webhooks',
  version: 2,
  category: webhookStreamCategory,
  decider: webhookDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [['environment'], ['environment', 'organization_domain']],
};
