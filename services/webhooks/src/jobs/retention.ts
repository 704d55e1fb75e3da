import type { Logger } from '@sesame/platform';
import type { JobIndex } from './job-index';
import type { JobStore } from './job-store';

/**
 * Deletes completed, cancelled and discarded jobs once they are older than the retention period
 * (pending ones stay). Every replica sweeps; a delete is conditional on the job's revision, so
 * sweeps never race with a retry.
 */
export function startRetention(deps: { store: JobStore; index: JobIndex; retentionMs: number; logger: Logger }): {
  stop(): void;
} {
  const sweep = async () => {
    const cutoff = new Date(Date.now() - deps.retentionMs).toISOString();
    for (const { job, revision } of deps.index.expired(cutoff)) await deps.store.remove(job, revision);
  };
  const timer = setInterval(
    () => void sweep().catch((error: unknown) => deps.logger.warn({ err: error }, 'webhook job retention sweep failed')),
    Math.min(60_000, Math.max(1_000, deps.retentionMs / 4)),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
