import { noSoonerThan } from './answer-floor';

describe('noSoonerThan', () => {
  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now();
    const settled = await run().then(
      (value) => ({ value }),
      (error: Error) => ({ error: error.message }),
    );
    return { settled, ms: performance.now() - started };
  };

  // Regression: a timer can fire up to a millisecond early, and the answer came 58.9 ms after a 60 ms floor.
  it('holds a quick answer until the floor, and a failure too', async () => {
    const quick = await timed(() => noSoonerThan(60, async () => 'done'));
    expect(quick.settled).toEqual({ value: 'done' });
    expect(quick.ms).toBeGreaterThanOrEqual(60);
    const failed = await timed(() =>
      noSoonerThan(60, async () => {
        throw new Error('refused');
      }),
    );
    expect(failed.settled).toEqual({ error: 'refused' });
    expect(failed.ms).toBeGreaterThanOrEqual(60);
  });

  it('adds nothing to work longer than the floor', async () => {
    const slow = await timed(() => noSoonerThan(10, () => new Promise((resolve) => setTimeout(() => resolve('late'), 80))));
    expect(slow.settled).toEqual({ value: 'late' });
    expect(slow.ms).toBeGreaterThanOrEqual(79);
  });
});
