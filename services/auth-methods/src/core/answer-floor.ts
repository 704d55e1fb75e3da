import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Runs `work` and answers (or throws) no sooner than `floorMs` after it started, so that an answer
 * does not tell by its timing which path it took (an existing account does more work than an
 * unknown email). Work longer than the floor answers as soon as it is done.
 */
export async function noSoonerThan<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    // Timers count whole milliseconds from the event loop's cached clock, so one can fire up to a
    // millisecond early: sleep again until the floor has really passed.
    const elapsed = () => performance.now() - started;
    while (elapsed() < floorMs) await sleep(Math.ceil(floorMs - elapsed()));
  }
}
