import { percentile } from './report';

/** Operations per second and latency percentiles of a measured task. */
export interface Timed {
  perSecond: number;
  p50: number;
  p99: number;
}

/** How long a measurement runs: a number of operations, a number of seconds, or while a condition holds. */
export type Bound = { count: number } | { seconds: number } | { while: () => boolean };

/** Runs `task` with `concurrency` in flight until `bound` is reached: operations per second and latency percentiles. */
export async function timed(bound: Bound, concurrency: number, task: (i: number) => Promise<unknown>): Promise<Timed> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const more =
    'count' in bound
      ? () => next < bound.count
      : 'while' in bound
        ? bound.while
        : (
            (until: number) => () =>
              performance.now() < until
          )(started + bound.seconds * 1_000);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (more()) {
        const index = next++;
        const begin = performance.now();
        await task(index);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (latencies.length * 1_000) / (performance.now() - started),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}
