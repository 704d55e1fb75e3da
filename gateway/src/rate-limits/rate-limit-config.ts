import { maxRateLimitWindowSeconds, rateLimitDefaults, rateLimitNames, z } from '@sesame/contracts';
import type { RateLimitName } from '@sesame/contracts';
import type { RateLimit } from '@sesame/platform';

export const rateLimitEnvName = <N extends RateLimitName>(name: N) =>
  `SESAME_RATE_LIMIT_${name.toUpperCase() as Uppercase<N>}` as const;

const budgetPattern = /^(off|([1-9]\d{0,8})\/([1-9]\d{0,6}))$/;

/** `<requests>/<seconds>` (e.g. `10/60`) or `off`; absent: the documented default. */
const budgetSchema = (name: RateLimitName) =>
  z
    .string()
    .trim()
    .regex(budgetPattern, 'must be <requests>/<seconds> (e.g. 10/60) or off')
    .optional()
    .transform((value, context): RateLimit | null => {
      if (value === 'off') return null;
      const [limit, seconds] =
        value === undefined
          ? [rateLimitDefaults[name].limit, rateLimitDefaults[name].windowSeconds]
          : value.split('/').map(Number);
      if (seconds! > maxRateLimitWindowSeconds) {
        context.addIssue({ code: 'custom', message: `the window may not be longer than ${maxRateLimitWindowSeconds} seconds` });
        return z.NEVER;
      }
      return { limit: limit!, windowMs: seconds! * 1_000 };
    });

type RateLimitEnvShape = { [N in RateLimitName as ReturnType<typeof rateLimitEnvName<N>>]: ReturnType<typeof budgetSchema> };

/** One variable per budget of `rateLimitDefaults`: `SESAME_RATE_LIMIT_TOKEN_CLIENT=300/60`... */
export const rateLimitEnvShape = Object.fromEntries(
  rateLimitNames.map((name) => [rateLimitEnvName(name), budgetSchema(name)]),
) as RateLimitEnvShape;

export type RateLimitBudgets = Record<RateLimitName, RateLimit | null>;

export const budgetsOf = (config: { [K in keyof RateLimitEnvShape]: RateLimit | null }): RateLimitBudgets =>
  Object.fromEntries(rateLimitNames.map((name) => [name, config[rateLimitEnvName(name)]])) as RateLimitBudgets;
