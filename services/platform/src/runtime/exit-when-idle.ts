import type { Logger } from '../logging/logger';

/**
 * Ends a process that has stopped cleanly. Once everything is closed it ends on its own; what still
 * holds it after `afterMs` (a retry's timer, a request to a process that went away) holds nothing
 * that matters any more: it is named in the log and the process exits 0, rather than wait for the
 * shutdown deadline and exit 1 as a failed stop does.
 */
export function exitWhenIdle(logger: Logger, name: string, afterMs = 1_000): void {
  setTimeout(() => {
    logger.warn({ resources: process.getActiveResourcesInfo() }, `${name} still held after stopping; exiting`);
    process.exit(0);
  }, afterMs).unref();
}
