import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<{ position: bigint }>();

/**
 * Runs `work` noting the furthest event-store position its appends reached (0 when it appended
 * nothing): a write's answer names it, so that a read elsewhere can wait for it (read-your-writes).
 */
export async function trackingAppends<T>(work: () => Promise<T>): Promise<{ result: T; position: bigint }> {
  const reached = { position: 0n };
  const result = await scope.run(reached, work);
  return { result, position: reached.position };
}

/** An append of the work in progress reached `position`. */
export function noteAppend(position: bigint): void {
  const reached = scope.getStore();
  if (reached && position > reached.position) reached.position = position;
}
