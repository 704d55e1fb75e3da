import { rateLimitNames } from '@sesame/contracts';

/**
 * Environment that turns every gateway rate limit off: for benchmarks, which measure throughput
 * (the limits are tested in test/e2e/rate-limits.e2e.spec.ts and the brute-force tests).
 */
export const rateLimitsOff: Record<string, string> = Object.fromEntries(
  rateLimitNames.map((name) => [`SESAME_RATE_LIMIT_${name.toUpperCase()}`, 'off']),
);
