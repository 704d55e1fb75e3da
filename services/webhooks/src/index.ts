import { KeyRing } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform/messaging';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { WebhooksConfig } from './config';
import { startDelivery } from './delivery/delivery';
import { registerEventsFeed } from './events-feed/events-feed.module';
import { JobIndex } from './jobs/job-index';
import { JobStore } from './jobs/job-store';
import { registerWebhookEvents } from './jobs/webhook-events.module';
import { Organizations } from './webhooks/organizations';
import { registerWebhooks } from './webhooks/webhooks.module';

export { webhooksConfigSchema } from './config';
export type { WebhooksConfig } from './config';

/**
 * The service's handlers and projections on a runtime (webhooks, their delivery jobs in the
 * runtime's JetStream bucket) and this replica's share of the delivery, calling identity through
 * `rpc`: what `main` starts.
 */
export async function assembleWebhooks(runtime: ServiceRuntime, config: WebhooksConfig, rpc: RpcClient): Promise<void> {
  const keyRing = new KeyRing(config.SESAME_ENCRYPTION_KEYS);
  const organizations = new Organizations(rpc);
  const view = registerWebhooks(runtime, { keyRing, keyOverlapMs: config.SESAME_WEBHOOK_KEY_OVERLAP_MS, organizations });
  const store = await JobStore.open(runtime.nc, config.SESAME_PREFIX, config.SESAME_JETSTREAM_REPLICAS);
  const index = new JobIndex();
  registerWebhookEvents(runtime, { view, store, index, now: () => new Date() });
  await registerEventsFeed(runtime, {
    view,
    store,
    index,
    retentionMs: config.SESAME_EVENTS_RETENTION_MS,
    now: () => new Date(),
  });
  await startDelivery(runtime, config, { view, store, index, keyRing });
}
