import type { ConsumerMessages } from 'nats';

/**
 * Stops a `for await` loop over a JetStream `consume()` and waits until the loop has ended (the
 * message in hand handled). Only the loop is awaited, never `close()` itself: with a durable
 * consumer, nats.js 2.29's `close()` never resolves when the loop leaves by `break` while the close
 * is pending (a message was being handled when the stop came), which held a stopping process until
 * its shutdown deadline killed it. The loop must check its `stopped` flag after each message.
 */
export async function stopConsuming(messages: ConsumerMessages | undefined, loop: Promise<unknown> | undefined): Promise<void> {
  messages?.close().catch(() => undefined);
  await loop;
}

/**
 * `stopConsuming`, waiting for the message in hand at most `withinMs`: answers whether the loop
 * ended in time. A loop still busy is left to itself (its message unacknowledged, so another
 * consumer of the durable gets it after the ack wait, as after a crash): a reaction held by a
 * service that does not answer must not keep a stopping process past its shutdown deadline.
 */
export async function stopConsumingWithin(
  messages: ConsumerMessages | undefined,
  loop: Promise<unknown>,
  withinMs: number,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), withinMs);
  });
  const ended = stopConsuming(messages, loop).then(() => true);
  const inTime = await Promise.race([ended, late]);
  clearTimeout(timer);
  return inTime;
}
