import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSignatureKey,
  updateWebhook,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { targetUrlProblem } from '@sesame/platform/http';
import { webhookAggregate } from './commands/webhook.aggregate';
import * as handlers from './commands/webhook.handlers';
import type { Organizations } from './organizations';
import { webhooksView } from './projections/webhooks.projection';
import { getWebhookHandler, listWebhooksHandler } from './queries/webhook.queries';
import type { WebhooksDeps, WebhooksView } from './webhooks.deps';

/** Where `events/` reads it from (see `webhooks.deps`). */
export type { WebhooksView } from './webhooks.deps';

export type WebhooksOptions = Pick<WebhooksDeps, 'keyRing' | 'keyOverlapMs'> & { organizations: Organizations };

/** Webhooks: one event-sourced aggregate per webhook, its read model and the HTTP operations. */
export function registerWebhooks(runtime: ServiceRuntime, options: WebhooksOptions): WebhooksView {
  const production = runtime.config.SESAME_MODE === 'production';
  const deps: WebhooksDeps = {
    ...options,
    webhooks: runtime.aggregate(webhookAggregate),
    view: runtime.projections.register(new AggregateView(webhooksView, runtime.readModels, runtime.eventStore)),
    metadata: (context) => runtime.metadata(context),
    targetProblem: (url) => targetUrlProblem(url, production),
    now: () => new Date(),
  };
  runtime.router.operation(createWebhook, handlers.createWebhookHandler(deps));
  runtime.router.operation(listWebhooks, listWebhooksHandler(deps));
  runtime.router.operation(getWebhook, getWebhookHandler(deps));
  runtime.router.operation(updateWebhook, handlers.updateWebhookHandler(deps));
  runtime.router.operation(deleteWebhook, handlers.deleteWebhookHandler(deps));
  runtime.router.operation(rotateWebhookSignatureKey, handlers.rotateWebhookSignatureKeyHandler(deps));
  return deps.view;
}
