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
