import { subjects, z } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import { readOutbox } from '@sesame/platform/mail';
import { readSmsOutbox } from '@sesame/platform/sms';
import type { ServiceRuntime } from '@sesame/platform/runtime';

export const devOutboxRequestSchema = z.object({
  to: z.string().max(254).optional(),
  tag: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1_000).optional(),
});

/**
 * Development mode only: the local mail and SMS outboxes, for `GET /dev/outbox` and
 * `GET /dev/sms-outbox` on the gateway. Absent in production, where nothing answers these subjects.
 */
export function registerDevOutbox(runtime: ServiceRuntime): void {
  if (runtime.config.SESAME_MODE === 'production') return;
  const queryOf = (input: z.infer<typeof devOutboxRequestSchema>) => ({
    ...(input.to ? { to: input.to } : {}),
    ...(input.tag ? { tag: input.tag } : {}),
    ...(input.limit ? { limit: input.limit } : {}),
  });
  runtime.router.on(
    subjects.identity.devOutbox,
    async (input) => ok({ data: await readOutbox(runtime.nc, runtime.config.SESAME_PREFIX, queryOf(input)) }),
    devOutboxRequestSchema,
  );
  runtime.router.on(
    subjects.identity.devSmsOutbox,
    async (input) => ok({ data: await readSmsOutbox(runtime.nc, runtime.config.SESAME_PREFIX, queryOf(input)) }),
    devOutboxRequestSchema,
  );
}
