import { rateLimitsOff } from '../../test/support/rate-limits';
import { System } from '../../test/support/system';
import type { StartSystemOptions } from '../../test/support/system';

/**
 * The real system under a benchmark: quiet logs, and the gateway's rate limits off (explicitly,
 * with the same `SESAME_RATE_LIMIT_*` variables an operator sets): a benchmark measures the work,
 * not 429 answers; the limits are tested by the rate-limit and brute-force tests.
 */
export function startBenchSystem(processEnv?: StartSystemOptions['processEnv']): Promise<System> {
  return System.start({ env: { SESAME_LOG_LEVEL: 'warn', ...rateLimitsOff }, processEnv });
}
