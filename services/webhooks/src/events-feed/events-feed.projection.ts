import type { ReadModelStore, Subscription } from '@sesame/platform';
import { subscribeToServiceEvents } from '@sesame/platform/messaging';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { eventSources } from '../events/event-mapping';
import { PayloadMismatch } from '../events/public-payload';
import { eventsFeedCollection, eventsFeedVersion, feedEntryOf } from './feed-entry';
import type { FeedEntry } from './feed-entry';

/** The feed's collection, with the indexes its pages (per environment and source stream, by position) and its retention use. */
export async function openEventsFeed(readModels: ReadModelStore) {
  const entries = readModels.collection<FeedEntry>(eventsFeedCollection);
  await entries.ensureIndex(['environment', 'source', 'seq', 'index']);
  await entries.ensureIndex(['occurred_at']);
  return entries;
}

/**
 * Projects the public events of every source service into the feed: one durable consumer per
 * source stream, shared by the replicas, ONE commit at a time (no `parallelCommits`), so the
 * entries of a stream are written in the order of its sequence and a commit is written before
 * the next one is handed to any replica (a redelivered commit rewrites the same entries). A reader
 * that saw an entry of a stream has therefore seen every earlier one of that stream: what the
 * cursor relies on (events-feed.query.ts). The consumers' names carry the version, so a new
 * version reads every stream again from its start (the NATS permissions of the service name these
 * consumers: services/platform/src/messaging/nats-permissions.ts). An event whose payload its schema refuses is
 * left out (the webhook reactor logs it).
 */
export function startEventsFeedProjection(
  runtime: ServiceRuntime,
  entries: { upsert(entry: FeedEntry): Promise<boolean> },
): Subscription[] {
  return eventSources.map(({ source, map }) =>
    subscribeToServiceEvents({
      nc: runtime.nc,
      prefix: runtime.config.SESAME_PREFIX,
      source,
      consumer: `webhooks-events-feed-v${eventsFeedVersion}-from-${source}`,
      logger: runtime.logger,
      onCommit: async (commit) => {
        for (const [index, event] of commit.events.entries()) {
          const published = publishable(() => map(event));
          if (published) await entries.upsert(feedEntryOf(source, Number(commit.position), index, event, published));
        }
      },
    }),
  );
}

const publishable = <T>(map: () => T | null): T | null => {
  try {
    return map();
  } catch (error) {
    if (error instanceof PayloadMismatch) return null;
    throw error;
  }
};
