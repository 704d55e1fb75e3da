import type { WebhookDomainEvent } from '@sesame/contracts';
import type { AggregateType } from '@sesame/platform';
import { webhookDecider } from '../domain/webhook.decider';
import type { WebhookCommand, WebhookState } from '../domain/webhook.decider';
import { webhookStream } from '../projections/webhooks.projection';

/** A webhook, named by its id (`webhook_<hex>`). */
export const webhookAggregate: AggregateType<WebhookState, WebhookCommand, WebhookDomainEvent> = {
  decider: webhookDecider,
  stream: webhookStream,
};
