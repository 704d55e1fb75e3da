import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A floor started now: `reached()` resolves no sooner than `floorMs` after this call, so that an
 * answer does not tell by its timing which path it took (an existing account does more work than
 * an unknown email). Once the floor has passed, `reached()` resolves at once.
 */
export function answerFloor(floorMs: number): { reached(): Promise<void> } {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  return {
    async reached() {
      // Timers count whole milliseconds from the event loop's cached clock, so one can fire up to a
      // millisecond early: sleep again until the floor has really passed.
      while (elapsed() < floorMs) await sleep(Math.ceil(floorMs - elapsed()));
    },
  };
}

/** Runs `work` and answers (or throws) no sooner than `floorMs` after it started; longer work answers as soon as it is done. */
export async function noSoonerThan<T>(floorMs: number, work: () => Promise<T>): Promise<T> {
  const floor = answerFloor(floorMs);
  try {
    return await work();
  } finally {
    await floor.reached();
  }
}
