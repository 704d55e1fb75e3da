import { cancelWebhookEvent, listWebhookEvents, retryWebhookEvent, triggerTestWebhookEvent } from '@sesame/contracts';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import {
  cancelWebhookEventHandler,
  listWebhookEventsHandler,
  retryWebhookEventHandler,
  triggerTestWebhookEventHandler,
} from './webhook-events.handlers';
import type { WebhookEventsDeps } from './webhook-events.handlers';

/** The HTTP operations on delivery jobs: list, trigger a test event, retry, cancel. */
export function registerWebhookEvents(runtime: ServiceRuntime, deps: WebhookEventsDeps): void {
  runtime.router.operation(listWebhookEvents, listWebhookEventsHandler(deps));
  runtime.router.operation(triggerTestWebhookEvent, triggerTestWebhookEventHandler(deps));
  runtime.router.operation(retryWebhookEvent, retryWebhookEventHandler(deps));
  runtime.router.operation(cancelWebhookEvent, cancelWebhookEventHandler(deps));
}
