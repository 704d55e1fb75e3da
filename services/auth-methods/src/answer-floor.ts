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
    const left = floorMs - (performance.now() - started);
    if (left > 0) await sleep(left);
  }
}
