import type { KeyRing, Metrics } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { WebhooksConfig } from '../config';
import { startEventReactor } from '../events/event-reactor';
import type { JobIndex } from '../jobs/job-index';
import type { JobStore } from '../jobs/job-store';
import { startRetention } from '../jobs/retention';
import type { WebhooksView } from '../webhooks/webhooks.deps';
import { Dispatcher } from './dispatcher';
import { Sender } from './sender';

/**
 * Starts this replica's share of the delivery: the job index (watch of the bucket, loaded
 * before the service answers), then, once the webhooks read model has caught up, the event
 * reactor, the dispatcher and the retention sweep. All stop before the connections close.
 */
export async function startDelivery(
  runtime: ServiceRuntime,
  config: WebhooksConfig,
  deps: { view: WebhooksView; store: JobStore; index: JobIndex; keyRing: KeyRing },
): Promise<void> {
  const { view, store, index, keyRing } = deps;
  const watch = await new Promise<{ stop(): void }>((resolve, reject) => {
    let handle: { stop(): void } | undefined;
    let ready = false;
    store
      .watch(index.observe, () => {
        ready = true;
        if (handle) resolve(handle);
      })
      .then((started) => {
        handle = started;
        if (ready) resolve(started);
      }, reject);
  });
  const sender = new Sender({
    connectTimeoutMs: config.SESAME_WEBHOOK_CONNECT_TIMEOUT_MS,
    responseTimeoutMs: config.SESAME_WEBHOOK_RESPONSE_TIMEOUT_MS,
    publicOnly: config.SESAME_MODE === 'production',
  });
  const dispatcher = new Dispatcher({
    store,
    index,
    sender,
    keyRing,
    webhook: (id) => view.documents.get(id),
    leaseMs: config.SESAME_WEBHOOK_LEASE_MS,
    backoff: { base_ms: config.SESAME_WEBHOOK_BACKOFF_BASE_MS, max_ms: config.SESAME_WEBHOOK_BACKOFF_MAX_MS },
    concurrency: config.SESAME_WEBHOOK_CONCURRENCY,
    concurrencyPerWebhook: config.SESAME_WEBHOOK_CONCURRENCY_PER_WEBHOOK,
    pollMs: config.SESAME_WEBHOOK_POLL_MS,
    logger: runtime.logger,
    metrics: runtime.metrics,
  });
  countBacklog(runtime.metrics, index);
  const retention = startRetention({ store, index, retentionMs: config.SESAME_WEBHOOK_RETENTION_MS, logger: runtime.logger });
  const started = runtime.projections.whenReady().then(() => {
    dispatcher.start();
    return startEventReactor(runtime, { view, store, index });
  });
  runtime.onShutdown(async () => {
    retention.stop();
    await Promise.all((await started).map((reactor) => reactor.stop()));
    await dispatcher.stop(config.SESAME_SHUTDOWN_GRACE_MS);
    watch.stop();
    await sender.close();
  });
}

/** The backlog gauges, read from this replica's job index (every replica sees every job). */
function countBacklog(metrics: Metrics, index: JobIndex): void {
  metrics.sample(metrics.webhookJobsWaiting, async () => index.backlog().waiting);
  metrics.sample(metrics.webhookOldestJobAge, async () => {
    const { oldestInsertedAt } = index.backlog();
    return oldestInsertedAt === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldestInsertedAt)) / 1_000);
  });
}
