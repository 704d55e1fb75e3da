import type { Collection, Logger } from '@sesame/platform';
import type { FeedEntry } from './feed-entry';

/**
 * Deletes the feed's events older than the retention period. Every replica sweeps (a delete
 * is idempotent). A cursor that named a deleted event still works: the page starts at the
 * oldest event kept after it.
 */
export function startEventsFeedRetention(deps: {
  entries: Pick<Collection<FeedEntry>, 'deleteMany'>;
  retentionMs: number;
  logger: Logger;
  now(): Date;
}): { stop(): void; sweep(): Promise<number> } {
  const sweep = () =>
    deps.entries.deleteMany({ occurred_at: { $lt: new Date(deps.now().getTime() - deps.retentionMs).toISOString() } });
  const timer = setInterval(
    () => void sweep().catch((error: unknown) => deps.logger.warn({ err: error }, 'events feed retention sweep failed')),
    Math.min(3_600_000, Math.max(1_000, deps.retentionMs / 4)),
  );
  timer.unref();
  return { stop: () => clearInterval(timer), sweep };
}
