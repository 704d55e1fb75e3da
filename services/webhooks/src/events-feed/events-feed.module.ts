import { exportEvents, exportEventsQuerySchema, listEvents, replayWebhook, z } from '@sesame/contracts';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { exportEventsPageHandler, listEventsHandler, replayWebhookHandler } from './events-feed.handlers';
import type { EventsFeedDeps } from './events-feed.handlers';
import { openErasedSubjects, openEventsFeed, startEventsFeedProjection } from './events-feed.projection';
import { startEventsFeedRetention } from './events-feed.retention';

/**
 * The events feed: its projection of every source service's public events, its retention
 * sweep, `GET /api/v2/events`, the pages of its export and the replay of its events to a webhook
 * (the environment is the API key's).
 */
export async function registerEventsFeed(
  runtime: ServiceRuntime,
  options: Omit<EventsFeedDeps, 'entries'> & { retentionMs: number },
): Promise<void> {
  const deps: EventsFeedDeps = { ...options, entries: await openEventsFeed(runtime.readModels) };
  runtime.router.operation(listEvents, listEventsHandler(deps));
  runtime.router.on(exportEvents.subject, exportEventsPageHandler(deps), z.object({ query: exportEventsQuerySchema }));
  runtime.router.operation(replayWebhook, replayWebhookHandler(deps));
  const projection = await startEventsFeedProjection(runtime, deps.entries, await openErasedSubjects(runtime.readModels));
  const retention = startEventsFeedRetention({
    entries: deps.entries,
    retentionMs: options.retentionMs,
    logger: runtime.logger,
    now: options.now,
  });
  runtime.onShutdown(async () => {
    retention.stop();
    await Promise.all(projection.map((subscription) => subscription.stop()));
  });
}
