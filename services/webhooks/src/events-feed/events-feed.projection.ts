import type { ReadModelStore, Subscription } from '@sesame/platform';
import { followServiceEvents } from '@sesame/platform/stores';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { eventSources } from '../events/event-mapping';
import { PayloadMismatch } from '../events/public-payload';
import { eventsFeedCollection, feedEntryOf } from './feed-entry';
import type { FeedEntry } from './feed-entry';

/** The feed's collection, with the indexes its pages (per environment and source stream, by position) and its retention use. */
export async function openEventsFeed(readModels: ReadModelStore) {
  const entries = readModels.collection<FeedEntry>(eventsFeedCollection);
  await entries.ensureIndex(['environment', 'source', 'seq', 'index']);
  await entries.ensureIndex(['occurred_at']);
  return entries;
}

/** Where the feed stands in a source's stream, kept in the read model with the entries. */
interface FeedCheckpoint {
  _id: string;
  position: string;
}

/**
 * Projects the public events of every source service into the feed: each replica follows each
 * source stream itself (an ordered consumer), from the position its read model holds (0 for the
 * in-memory one, rebuilt at every start; MongoDB's is shared and kept), one commit at a time, so
 * the entries of a stream are written in the order of its sequence and the position is saved
 * after its commit's entries (a commit read again rewrites the same entries). A reader that saw
 * an entry of a stream has therefore seen every earlier one of that stream: what the cursor
 * relies on (events-feed.query.ts). Every replica holds the whole feed. An event whose payload its
 * schema refuses is left out (the webhook reactor logs it).
 */
export async function startEventsFeedProjection(
  runtime: ServiceRuntime,
  entries: { upsert(entry: FeedEntry): Promise<boolean> },
): Promise<Subscription[]> {
  const checkpoints = runtime.readModels.collection<FeedCheckpoint>(`${eventsFeedCollection}_positions`);
  const onError = (error: unknown) => runtime.logger.warn({ err: error }, 'events feed subscription error');
  return Promise.all(
    eventSources.map(async ({ source, map }) => {
      const store = await followServiceEvents(runtime.nc, runtime.config.SESAME_PREFIX, source, onError);
      const saved = await checkpoints.get(source);
      return store.subscribeToAll({
        from: BigInt(saved?.position ?? '0'),
        onCommit: async (commit) => {
          for (const [index, event] of commit.events.entries()) {
            const published = publishable(() => map(event));
            if (published) await entries.upsert(feedEntryOf(source, Number(commit.position), index, event, published));
          }
          await checkpoints.upsert({ _id: source, position: String(commit.position) });
        },
      });
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
