import {
  codesOfPattern,
  decodeEventFeedCursor,
  defaultEventsLimit,
  encodeEventFeedCursor,
  exportEvents,
  exportEventsPageSize,
  exportEventsQuerySchema,
  listEvents,
  replayWebhook,
} from '@sesame/contracts';
import { z } from '@sesame/contracts';
import type { EventFeedPage, ExportEventsQuery, ListEventsQuery, WebhookEventCode } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { eventSources } from '../events/event-mapping';
import { toWebhookEvent } from '../jobs/domain/job.decider';
import type { JobIndex } from '../jobs/job-index';
import type { JobStore } from '../jobs/job-store';
import { environmentOf } from '../tenancy';
import { findOwnWebhook } from '../webhooks/queries/webhook.queries';
import type { WebhooksView } from '../webhooks/webhooks.deps';
import { openErasedSubjects, startEventsFeedProjection, openEventsFeed } from './events-feed.projection';
import { feedPage } from './events-feed.query';
import { startEventsFeedRetention } from './events-feed.retention';
import { toFeedEvent } from './feed-entry';
import { replayToWebhook } from './webhook-replay';

const sources = eventSources.map(({ source }) => source);
const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

/** The codes `events` names (patterns expanded), or undefined: every code. */
const codesOf = (patterns: ListEventsQuery['events']) =>
  patterns ? [...new Set(patterns.flatMap((pattern) => codesOfPattern(pattern)))] : undefined;

/**
 * The events feed: its projection of every source service's public events, its retention
 * sweep, `GET /api/v2/events` and the replay of its events to a webhook (the environment is the
 * API key's).
 */
export async function registerEventsFeed(
  runtime: ServiceRuntime,
  deps: { view: WebhooksView; store: JobStore; index: JobIndex; retentionMs: number; now(): Date },
): Promise<void> {
  const entries = await openEventsFeed(runtime.readModels);
  runtime.router.operation(listEvents, async ({ query }, context) => {
    // Checked by the operation's schema: an invalid cursor never gets here.
    const positions = query.after ? (decodeEventFeedCursor(query.after) ?? {}) : {};
    const page = await feedPage(entries, sources, {
      environment: environmentOf(context.meta),
      positions,
      limit: query.limit ?? defaultEventsLimit,
      organization_id: query.organization_id,
      codes: codesOf(query.events),
      actor_type: query.actor_type,
      actor_id: query.actor_id,
      range_start: instant(query.range_start),
      range_end: instant(query.range_end),
    });
    return ok({
      data: page.entries.map((entry) => toFeedEvent(entry)),
      list_metadata: { after: encodeEventFeedCursor(page.positions), has_more: page.has_more },
    });
  });
  // One page of an export (the operation's answer is a stream of its events, not this page): the
  // gateway streams the pages, asking each only once the previous one is written.
  runtime.router.on(
    exportEvents.subject,
    async ({ query }: { query: ExportEventsQuery }, context) => {
      const page = await feedPage(entries, sources, {
        environment: environmentOf(context.meta),
        positions: query.after ? (decodeEventFeedCursor(query.after) ?? {}) : {},
        limit: exportEventsPageSize,
        organization_id: query.organization_id,
        codes: codesOf(query.events),
        range_start: instant(query.range_start),
        range_end: instant(query.range_end),
      });
      return ok<EventFeedPage>({
        data: page.entries.map((entry) => toFeedEvent(entry)),
        list_metadata: { after: encodeEventFeedCursor(page.positions), has_more: page.has_more },
      });
    },
    z.object({ query: exportEventsQuerySchema }),
  );
  runtime.router.operation(replayWebhook, async ({ params, query }, context) => {
    const environment = environmentOf(context.meta);
    const webhook = await findOwnWebhook(deps, params.id, environment);
    const page = await feedPage(entries, sources, {
      environment,
      positions: query.after ? (decodeEventFeedCursor(query.after) ?? {}) : {},
      limit: query.limit ?? defaultEventsLimit,
      // Codes a webhook listens to are catalogue codes (checked when it was created or updated).
      codes: webhook.event_codes as WebhookEventCode[],
      ...(webhook.organization_domain ? { organization_domain: webhook.organization_domain } : {}),
    });
    const jobs = await replayToWebhook(webhook, page.entries, deps);
    return ok({
      data: jobs.map((job) => toWebhookEvent(job)),
      list_metadata: { after: encodeEventFeedCursor(page.positions), has_more: page.has_more },
    });
  });
  const projection = await startEventsFeedProjection(runtime, entries, await openErasedSubjects(runtime.readModels));
  const retention = startEventsFeedRetention({ entries, retentionMs: deps.retentionMs, logger: runtime.logger, now: deps.now });
  runtime.onShutdown(async () => {
    retention.stop();
    await Promise.all(projection.map((subscription) => subscription.stop()));
  });
}
