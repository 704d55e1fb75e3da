import { codesOfPattern, decodeEventFeedCursor, defaultEventsLimit, encodeEventFeedCursor, listEvents } from '@sesame/contracts';
import type { ListEventsQuery } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { eventSources } from '../events/event-mapping';
import { environmentOf } from '../tenancy';
import { startEventsFeedProjection, openEventsFeed } from './events-feed.projection';
import { feedPage } from './events-feed.query';
import { startEventsFeedRetention } from './events-feed.retention';
import { toFeedEvent } from './feed-entry';

const sources = eventSources.map(({ source }) => source);
const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

/** The codes `events` names (patterns expanded), or undefined: every code. */
const codesOf = (patterns: ListEventsQuery['events']) =>
  patterns ? [...new Set(patterns.flatMap((pattern) => codesOfPattern(pattern)))] : undefined;

/**
 * The events feed: its projection of every source service's public events, its retention
 * sweep, and `GET /api/v2/events` (the environment is the API key's).
 */
export async function registerEventsFeed(runtime: ServiceRuntime, deps: { retentionMs: number; now(): Date }): Promise<void> {
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
  const projection = startEventsFeedProjection(runtime, entries);
  const retention = startEventsFeedRetention({ entries, retentionMs: deps.retentionMs, logger: runtime.logger, now: deps.now });
  runtime.onShutdown(async () => {
    retention.stop();
    await Promise.all(projection.map((subscription) => subscription.stop()));
  });
}
