import {
  codesOfPattern,
  decodeEventFeedCursor,
  defaultEventsLimit,
  encodeEventFeedCursor,
  exportEventsPageSize,
} from '@sesame/contracts';
import type {
  EventFeedPage,
  ExportEventsQuery,
  ListEventsQuery,
  OperationInput,
  WebhookEventCode,
  listEvents,
  replayWebhook,
} from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { Collection, RequestContext } from '@sesame/platform';
import { eventSources } from '../events/event-mapping';
import { toWebhookEvent } from '../jobs/domain/job.decider';
import type { JobIndex } from '../jobs/job-index';
import type { JobStore } from '../jobs/job-store';
import { environmentOf } from '../tenancy';
import { findOwnWebhook } from '../webhooks/queries/webhook.queries';
import type { WebhooksView } from '../webhooks/webhooks.deps';
import { feedPage } from './events-feed.query';
import type { FeedPage } from './events-feed.query';
import { toFeedEvent } from './feed-entry';
import type { FeedEntry } from './feed-entry';
import { replayToWebhook } from './webhook-replay';

/** What the events feed's handlers share: its entries, and for a replay the webhooks and their delivery jobs. */
export interface EventsFeedDeps {
  entries: Collection<FeedEntry>;
  view: WebhooksView;
  store: JobStore;
  index: JobIndex;
  now(): Date;
}

const sources = eventSources.map(({ source }) => source);
const instant = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());
/** Where a page starts: after the cursor's positions (checked by the operation's schema), or at the beginning. */
const positionsOf = (after: string | undefined) => (after ? (decodeEventFeedCursor(after) ?? {}) : {});

/** The codes `events` names (patterns expanded), or undefined: every code. */
const codesOf = (patterns: ListEventsQuery['events']) =>
  patterns ? [...new Set(patterns.flatMap((pattern) => codesOfPattern(pattern)))] : undefined;

/** A page's answer: its items, and the cursor after them. */
const pageAnswer = <Item>(page: FeedPage, data: Item[]) => ({
  data,
  list_metadata: { after: encodeEventFeedCursor(page.positions), has_more: page.has_more },
});

/** `GET /api/v2/events`: a page of the API key's environment's events. */
export function listEventsHandler(deps: Pick<EventsFeedDeps, 'entries'>) {
  return async ({ query }: OperationInput<typeof listEvents>, context: RequestContext) => {
    const page = await feedPage(deps.entries, sources, {
      environment: environmentOf(context.meta),
      positions: positionsOf(query.after),
      limit: query.limit ?? defaultEventsLimit,
      organization_id: query.organization_id,
      codes: codesOf(query.events),
      actor_type: query.actor_type,
      actor_id: query.actor_id,
      range_start: instant(query.range_start),
      range_end: instant(query.range_end),
    });
    return ok(
      pageAnswer(
        page,
        page.entries.map((entry) => toFeedEvent(entry)),
      ),
    );
  };
}

/**
 * One page of an export (the operation's answer is a stream of its events, not this page): the
 * gateway streams the pages, asking each only once the previous one is written.
 */
export function exportEventsPageHandler(deps: Pick<EventsFeedDeps, 'entries'>) {
  return async ({ query }: { query: ExportEventsQuery }, context: RequestContext) => {
    const page = await feedPage(deps.entries, sources, {
      environment: environmentOf(context.meta),
      positions: positionsOf(query.after),
      limit: exportEventsPageSize,
      organization_id: query.organization_id,
      codes: codesOf(query.events),
      range_start: instant(query.range_start),
      range_end: instant(query.range_end),
    });
    return ok<EventFeedPage>(
      pageAnswer(
        page,
        page.entries.map((entry) => toFeedEvent(entry)),
      ),
    );
  };
}

/** `POST /api/v2/webhooks/{id}/replay`: the webhook's events after the cursor, queued again with their original ids. */
export function replayWebhookHandler(deps: EventsFeedDeps) {
  return async ({ params, query }: OperationInput<typeof replayWebhook>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const webhook = await findOwnWebhook(deps, params.id, environment);
    const page = await feedPage(deps.entries, sources, {
      environment,
      positions: positionsOf(query.after),
      limit: query.limit ?? defaultEventsLimit,
      // Codes a webhook listens to are catalogue codes (checked when it was created or updated).
      codes: webhook.event_codes as WebhookEventCode[],
      ...(webhook.organization_domain ? { organization_domain: webhook.organization_domain } : {}),
    });
    const jobs = await replayToWebhook(webhook, page.entries, deps);
    return ok(
      pageAnswer(
        page,
        jobs.map((job) => toWebhookEvent(job)),
      ),
    );
  };
}
