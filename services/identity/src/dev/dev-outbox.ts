import { subjects, z } from '@sesame/contracts';
import { ok, readOutbox } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform';

export const devOutboxRequestSchema = z.object({
  to: z.string().max(254).optional(),
  tag: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(1_000).optional(),
});

/**
 * Development mode only: the local mail outbox, for `GET /dev/outbox` on the gateway. Absent in
 * production, where nothing answers this subject.
 */
export function registerDevOutbox(runtime: ServiceRuntime): void {
  if (runtime.config.SESAME_MODE === 'production') return;
  runtime.router.on(
    subjects.identity.devOutbox,
    async (input) => {
      const query = {
        ...(input.to ? { to: input.to } : {}),
        ...(input.tag ? { tag: input.tag } : {}),
        ...(input.limit ? { limit: input.limit } : {}),
      };
      return ok({ data: await readOutbox(runtime.nc, runtime.config.SESAME_PREFIX, query) });
    },
    devOutboxRequestSchema,
  );
}
