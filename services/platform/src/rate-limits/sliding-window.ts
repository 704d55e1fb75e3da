/** A budget: at most `limit` requests in any `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Requests counted in the window before the current one and in the current one. */
export interface WindowCounts {
  previous: number;
  current: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** The fixed window `now` falls in; a counter is kept per window. */
export const windowIndex = (now: number, windowMs: number) => Math.floor(now / windowMs);

/**
 * Sliding-window counter: the previous window's count weighs by how much of it still overlaps the
 * last `windowMs`, so a burst at a window edge cannot spend the budget twice. A request is allowed
 * when it still fits; otherwise the answer says how long until it would (refused requests are not
 * counted).
 */
export function decideRate(budget: RateLimit, counts: WindowCounts, now: number): RateDecision {
  const { limit, windowMs } = budget;
  const elapsed = now - windowIndex(now, windowMs) * windowMs;
  const overlap = 1 - elapsed / windowMs;
  if (counts.previous * overlap + counts.current + 1 <= limit) return { allowed: true };
  return { allowed: false, retryAfterMs: Math.max(1, Math.ceil(waitMs(budget, counts, elapsed))) };
}

/** How long until `previous × overlap + current + 1 ≤ limit` holds (the current count no longer grows meanwhile). */
function waitMs({ limit, windowMs }: RateLimit, { previous, current }: WindowCounts, elapsed: number): number {
  // Still this window: the previous window's weight has to fall to what is left.
  if (current + 1 <= limit) return windowMs - ((limit - 1 - current) * windowMs) / previous - elapsed;
  // Next window: this window's count becomes the previous one and fades the same way.
  return 2 * windowMs - elapsed - ((limit - 1) * windowMs) / current;
}
