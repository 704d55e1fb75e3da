import type { NatsConnection } from 'nats';

/**
 * `nc` whose JetStream consumers never deliver a message, as ordered consumers placed on a
 * replica that is catching up were seen to do in cluster runs (their info answers nothing
 * pending, as such a replica does); everything else is real. `count` limits it to the first
 * consumers got (all by default).
 */
export function withSilentConsumers(nc: NatsConnection, count = Infinity): NatsConnection {
  const js = nc.jetstream();
  let got = 0;
  const consumers = {
    get: async (...args: Parameters<typeof js.consumers.get>) =>
      got++ < count
        ? { consume: async () => silentMessages(), info: async () => ({ num_pending: 0 }) }
        : js.consumers.get(...args),
  };
  const silentJs = bound(js, { consumers });
  return bound(nc, { jetstream: () => silentJs });
}

/** Messages that never come: iteration ends once closed. */
function silentMessages() {
  let close = () => {};
  const closed = new Promise<void>((resolve) => (close = resolve));
  return {
    close: async () => close(),
    closed: () => closed,
    [Symbol.asyncIterator]: () => ({ next: async () => closed.then(() => ({ done: true as const, value: undefined })) }),
  };
}

/** `target` with `overrides`, its own methods bound to it (nats.js objects keep private state). */
function bound<T extends object>(target: T, overrides: Record<string, unknown>): T {
  return new Proxy(target, {
    get: (object, key) => {
      if (typeof key === 'string' && key in overrides) return overrides[key];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}
