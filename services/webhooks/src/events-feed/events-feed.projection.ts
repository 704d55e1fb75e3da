import type { Environment, ServiceName, UserErasure } from '@sesame/contracts';
import type { Collection, ReadModelStore, RecordedEvent, Subscription } from '@sesame/platform';
import { followServiceEvents } from '@sesame/platform/stores';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { eventSources } from '../events/event-mapping';
import { PayloadMismatch } from '../events/public-payload';
import { eventsFeedCollection, feedEntryOf } from './feed-entry';
import type { FeedEntry } from './feed-entry';
import { afterErasures, erasedSubjectOf, rewrittenBy } from './feed-erasure';
import type { ErasedSubject } from './feed-erasure';

/** The feed's collection, with the indexes its pages (per environment and source stream, by position) and its retention use. */
export async function openEventsFeed(readModels: ReadModelStore) {
  const entries = readModels.collection<FeedEntry>(eventsFeedCollection);
  await entries.ensureIndex(['environment', 'source', 'seq', 'index']);
  await entries.ensureIndex(['occurred_at']);
  return entries;
}

/** The people erased from the feed (ids, pseudonyms, email hashes: no personal value), kept with the entries. */
export async function openErasedSubjects(readModels: ReadModelStore) {
  const subjects = readModels.collection<ErasedSubject>(`${eventsFeedCollection}_erasures`);
  await subjects.ensureIndex(['environment']);
  return subjects;
}

/** The erasure an identity event records, with its environment, or null. */
function erasureOf(source: ServiceName, event: RecordedEvent): ErasedSubject | null {
  if (source !== 'identity' || event.type !== 'UserErased') return null;
  const data = event.data as UserErasure & { environment: Environment };
  return erasedSubjectOf(data.environment, data);
}

/**
 * Applies an erasure: kept (so that the entries of the person any source writes later are
 * pseudonymised as they are written), then every entry of its environment already written that
 * is about the person is rewritten. Both orders give the same entries (feed-erasure.ts).
 */
async function applyErasure(subject: ErasedSubject, entries: Collection<FeedEntry>, subjects: Collection<ErasedSubject>) {
  await subjects.upsert(subject);
  for (const entry of rewrittenBy(subject, await entries.find({ environment: subject.environment }))) await entries.upsert(entry);
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
 * schema refuses is left out (the webhook reactor logs it). A user's erasure (identity's
 * `UserErased`) pseudonymises the person's entries already written and those written after it.
 */
export async function startEventsFeedProjection(
  runtime: ServiceRuntime,
  entries: Collection<FeedEntry>,
  subjects: Collection<ErasedSubject>,
): Promise<Subscription[]> {
  const checkpoints = runtime.readModels.collection<FeedCheckpoint>(`${eventsFeedCollection}_positions`);
  const onError = (error: unknown) => runtime.logger.warn({ err: error }, 'events feed subscription error');
  // One event at a time across the sources' subscriptions: an entry read with the erasures known
  // is written before an erasure of another stream reads the entries to rewrite.
  const exclusive = serially();
  return Promise.all(
    eventSources.map(async ({ source, map }) => {
      const store = await followServiceEvents(runtime.nc, runtime.config.SESAME_PREFIX, source, onError);
      const saved = await checkpoints.get(source);
      return store.subscribeToAll({
        from: BigInt(saved?.position ?? '0'),
        onCommit: async (commit) => {
          for (const [index, event] of commit.events.entries())
            await exclusive(async () => {
              const erasure = erasureOf(source, event);
              if (erasure) await applyErasure(erasure, entries, subjects);
              const published = publishable(() => map(event));
              if (!published) return;
              const entry = feedEntryOf(source, Number(commit.position), index, event, published);
              await entries.upsert(afterErasures(entry, await subjects.find({ environment: entry.environment })));
            });
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

/** Runs the tasks given to it one after the other, in the order given. */
function serially() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = last.then(task);
    last = run.catch(() => undefined);
    return run;
  };
}
