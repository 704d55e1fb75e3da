import { connect } from 'nats';
import type { ConnectionOptions, JetStreamManager } from 'nats';

/**
 * Waits until every durable consumer (the services' event feeds: cascades, provisioning,
 * webhooks) has nothing pending and nothing unacknowledged; answers how long that took. A read
 * model fed by another service's events is only final then (an organization's provisioning
 * reaches 100 % once identity has read every provisioner's acknowledgement).
 */
export async function waitUntilFeedsCaughtUp(options: ConnectionOptions, timeoutMs = 120_000): Promise<number> {
  const started = Date.now();
  const nc = await connect(options);
  try {
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    for (;;) {
      const behind = await feedsBehind(jsm).catch((error: unknown) => [String(error)]);
      if (behind.length === 0) return Date.now() - started;
      if (Date.now() - started > timeoutMs) throw new Error(`event feeds behind after ${timeoutMs} ms: ${behind.join('; ')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await nc.close();
  }
}

async function feedsBehind(jsm: JetStreamManager): Promise<string[]> {
  const behind: string[] = [];
  for await (const stream of jsm.streams.list())
    for await (const consumer of jsm.consumers.list(stream.config.name))
      if (consumer.config.durable_name && (consumer.num_pending > 0 || consumer.num_ack_pending > 0))
        behind.push(`${consumer.name}: ${consumer.num_pending} pending, ${consumer.num_ack_pending} unacknowledged`);
  return behind;
}
