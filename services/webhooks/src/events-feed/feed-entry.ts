import type { FeedEvent, ServiceName } from '@sesame/contracts';
import { actorOf, tenantOfEvent } from '@sesame/platform';
import type { ReadModelDocument, RecordedEvent } from '@sesame/platform';
import type { PublicEvent } from '../events/event-mapping';

/** Versioned name of the feed's read model: bumping the version rebuilds it from the start of every source stream. */
export const eventsFeedVersion = 1;
export const eventsFeedCollection = `events_feed_v${eventsFeedVersion}`;

/**
 * One public event of the feed, with its position in its source service's event stream: the
 * JetStream sequence of its commit (the same on every replica) and its index in the commit.
 */
export interface FeedEntry extends ReadModelDocument, Omit<FeedEvent, 'id'> {
  /** The event id. */
  _id: string;
  source: ServiceName;
  seq: number;
  index: number;
}

/** The entry of a published event read at `seq`/`index` of `source`'s stream. */
export function feedEntryOf(
  source: ServiceName,
  seq: number,
  index: number,
  event: RecordedEvent,
  published: PublicEvent,
): FeedEntry {
  const actor = actorOf(event.metadata);
  return {
    _id: published.id,
    source,
    seq,
    index,
    code: published.code,
    data: published.data as FeedEvent['data'],
    organization_id: tenantOfEvent(event)?.organization_id ?? null,
    organization_domain: published.domain,
    environment: published.environment,
    actor: actor ? { ...actor } : null,
    occurred_at: published.issued_at,
    description: published.description,
  };
}

/** The entry as the API answers it. */
export function toFeedEvent(entry: FeedEntry): FeedEvent {
  const { _id, _rev: _revision, source: _source, seq: _seq, index: _index, ...event } = entry;
  return { id: _id, ...event };
}
