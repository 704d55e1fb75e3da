import type { WebhookDomainEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, KeyRing, RequestContext } from '@sesame/platform';
import type { WebhookCommand, WebhookState } from './domain/webhook.decider';
import type { Organizations } from './organizations';

export type WebhooksView = AggregateView<WebhookState, WebhookDomainEvent>;

/** What the webhook handlers need, passed in explicitly. */
export interface WebhooksDeps {
  webhooks: Aggregate<WebhookState, WebhookCommand, WebhookDomainEvent>;
  view: WebhooksView;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  keyRing: KeyRing;
  /** How long a previous signature key keeps signing after a rotation. */
  keyOverlapMs: number;
  /** Identity's organizations, to check the organization a webhook is scoped to. */
  organizations: Pick<Organizations, 'scopeOf'>;
  /** Why a target URL cannot receive deliveries (DNS lookups), or null. */
  targetProblem(url: string): Promise<string | null>;
  now(): Date;
}
