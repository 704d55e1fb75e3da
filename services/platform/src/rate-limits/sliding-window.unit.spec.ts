import { decideRate, windowIndex } from './sliding-window';

const budget = { limit: 10, windowMs: 60_000 };
/** `seconds` into a window (window 1000 of 60 s). */
const at = (seconds: number) => 1_000 * 60_000 + seconds * 1_000;

describe('decideRate (sliding-window counter)', () => {
  it('given an unused budget, allows the first request', () => {
    expect(decideRate(budget, { previous: 0, current: 0 }, at(0))).toEqual({ allowed: true });
  });

  it('given 9 of 10 spent in this window, allows the tenth and refuses the eleventh until the window ends and the count fades', () => {
    expect(decideRate(budget, { previous: 0, current: 9 }, at(30))).toEqual({ allowed: true });
    // 10 spent at 30 s: the window ends in 30 s, then 10 × (1 - f) + 1 ≤ 10 needs f ≥ 0.1 (6 s more).
    expect(decideRate(budget, { previous: 0, current: 10 }, at(30))).toEqual({ allowed: false, retryAfterMs: 36_000 });
  });

  it('given a full previous window, counts it by how much of it still overlaps the last minute', () => {
    // 15 s into this window, 75 % of the previous one still counts: 10 × 0.75 + 2 + 1 = 10.5 > 10;
    // at 18 s it weighs 7 and the request fits.
    expect(decideRate(budget, { previous: 10, current: 2 }, at(15))).toEqual({ allowed: false, retryAfterMs: 3_000 });
    // At 30 s it weighs 5: 5 + 2 + 1 ≤ 10.
    expect(decideRate(budget, { previous: 10, current: 2 }, at(30))).toEqual({ allowed: true });
  });

  it('given a burst at the end of a window, refuses the same burst at the start of the next', () => {
    expect(decideRate(budget, { previous: 10, current: 0 }, at(1))).toMatchObject({ allowed: false });
  });

  it('given a budget of one, waits for the whole weight of the spent request to fade', () => {
    expect(decideRate({ limit: 1, windowMs: 10_000 }, { previous: 0, current: 1 }, 5_000)).toEqual({
      allowed: false,
      retryAfterMs: 15_000,
    });
  });

  it('answers at least one millisecond, never a negative wait', () => {
    expect(decideRate(budget, { previous: 10_000_000, current: 0 }, at(59.9999))).toEqual({ allowed: false, retryAfterMs: 1 });
  });

  it('numbers windows from the epoch', () => {
    expect(windowIndex(at(0), 60_000)).toBe(1_000);
    expect(windowIndex(at(59.999), 60_000)).toBe(1_000);
    expect(windowIndex(at(60), 60_000)).toBe(1_001);
  });
});
