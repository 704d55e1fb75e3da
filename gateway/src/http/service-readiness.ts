import { serviceNames, subjects } from '@sesame/contracts';
import type { RpcClient } from '@sesame/platform/messaging';

const cacheMs = 1_000;

/** Whether every service answers its health subject and reports its read models ready. */
export class ServiceReadiness {
  private checkedAt = 0;
  private last: Record<string, boolean> = {};

  constructor(private readonly rpc: RpcClient) {}

  async check(): Promise<Record<string, boolean>> {
    if (Date.now() - this.checkedAt < cacheMs) return this.last;
    const results = await Promise.all(
      serviceNames.map(async (service) => {
        try {
          const reply = await this.rpc.request<{ ready: boolean }>(
            subjects.health(service),
            { meta: { correlationId: 'readiness' }, input: {} },
            1_000,
          );
          return [service, reply.ok && reply.body.ready] as const;
        } catch {
          return [service, false] as const;
        }
      }),
    );
    this.last = Object.fromEntries(results);
    this.checkedAt = Date.now();
    return this.last;
  }
}
