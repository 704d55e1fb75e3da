import type { ActorType, Environment, EventFeedPositions, ServiceName, WebhookEventCode } from '@sesame/contracts';
import type { Collection, Filter } from '@sesame/platform';
import type { FeedEntry } from './feed-entry';

/** What a reader asks of the feed: where it stands (per source stream) and which events it wants. */
export interface FeedPageRequest {
  environment: Environment;
  positions: EventFeedPositions;
  limit: number;
  organization_id?: string;
  organization_domain?: string;
  codes?: WebhookEventCode[];
  actor_type?: ActorType;
  actor_id?: string;
  /** ISO instants (UTC, `toISOString`), start included, end excluded. */
  range_start?: string;
  range_end?: string;
}

export interface FeedPage {
  entries: FeedEntry[];
  /** Where the reader stands after this page: the cursor of the next one. */
  positions: EventFeedPositions;
  has_more: boolean;
}

/**
 * A page of the feed, stable under concurrent writes and the same on every replica.
 *
 * The feed is fed by several streams (one per source service), each written in the order of
 * its sequence (events-feed.projection.ts). The cursor is the vector of the positions (commit
 * sequence, index in the commit) of the last event given from each stream. A page takes, from
 * each stream, the matching events after its position (in stream order, one more than the page
 * holds), then merges them by occurrence time, taking at each step the oldest HEAD of the
 * streams' lists, so that each stream's events stay in stream order even when their clocks
 * disagree (the events taken from a stream are always a prefix of what it had after the
 * position). The next cursor advances each stream to the last event taken from it, and no
 * further. An event written meanwhile lands after every position already given of its stream:
 * no event is ever skipped or repeated, whatever the replica answering. Sequences, not
 * timestamps, decide: the order across streams is by time, within a stream by sequence.
 */
export async function feedPage(
  entries: Pick<Collection<FeedEntry>, 'find'>,
  sources: readonly ServiceName[],
  request: FeedPageRequest,
): Promise<FeedPage> {
  const filter = filterOf(request);
  const lists = await Promise.all(
    sources.map((source) =>
      entries.find(
        { ...filter, source, ...afterPosition(request.positions[source]) },
        { sort: { seq: 1, index: 1 }, limit: request.limit + 1 },
      ),
    ),
  );
  return mergePage(lists, request.positions, request.limit);
}

/**
 * The most a page's events may weigh as JSON: a page is one NATS reply, and NATS refuses a message
 * over its `max_payload` (1 MiB by default). Events of users with large metadata (50 values of
 * 2,000 characters) weigh about 100 KB each, so a page holds fewer events than asked rather than
 * failing; `has_more` and the cursor go on from there. A single event heavier than this still makes
 * a page of its own.
 */
export const maxPageBytes = 512 * 1024;

/**
 * The first `limit` events of the streams' lists (each in stream order) by time, at most
 * `maxBytes` of them as JSON (one at least), and the positions they reach.
 */
export function mergePage(lists: FeedEntry[][], positions: EventFeedPositions, limit: number, maxBytes = maxPageBytes): FeedPage {
  const heads = lists.map(() => 0);
  const taken: FeedEntry[] = [];
  const reached: EventFeedPositions = { ...positions };
  let bytes = 0;
  while (taken.length < limit) {
    let best = -1;
    for (const [list, entries] of lists.entries()) {
      const head = entries[heads[list] as number];
      if (!head) continue;
      const current = best < 0 ? undefined : lists[best]?.[heads[best] as number];
      if (!current || before(head, current)) best = list;
    }
    if (best < 0) break;
    const entry = lists[best]?.[heads[best] as number] as FeedEntry;
    bytes += Buffer.byteLength(JSON.stringify(entry));
    if (taken.length > 0 && bytes > maxBytes) break;
    heads[best] = (heads[best] as number) + 1;
    taken.push(entry);
    reached[entry.source] = [entry.seq, entry.index];
  }
  const has_more = lists.some((entries, list) => (heads[list] as number) < entries.length);
  return { entries: taken, positions: reached, has_more };
}

const before = (a: FeedEntry, b: FeedEntry) =>
  a.occurred_at < b.occurred_at || (a.occurred_at === b.occurred_at && a.source < b.source);

/**
 * The events of a stream after `position` (commit sequence, index in the commit). The bound on
 * `seq` lets both read models start at the position in the (environment, source, seq, index)
 * index rather than at the stream's first event: a page costs what it holds, not the feed's length.
 */
const afterPosition = (position: [number, number] | undefined): Filter =>
  position ? { seq: { $gte: position[0] }, $or: [{ seq: { $gt: position[0] } }, { index: { $gt: position[1] } }] } : {};

function filterOf(request: FeedPageRequest): Filter {
  const occurred: Record<string, string> = {};
  if (request.range_start) occurred.$gte = request.range_start;
  if (request.range_end) occurred.$lt = request.range_end;
  return {
    environment: request.environment,
    ...(request.organization_id ? { organization_id: request.organization_id } : {}),
    ...(request.organization_domain ? { organization_domain: request.organization_domain } : {}),
    ...(request.codes ? { code: { $in: request.codes } } : {}),
    ...(request.actor_type ? { 'actor.type': request.actor_type } : {}),
    ...(request.actor_id ? { 'actor.id': request.actor_id } : {}),
    ...(Object.keys(occurred).length > 0 ? { occurred_at: occurred } : {}),
  };
}
