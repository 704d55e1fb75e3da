import { connect } from 'nats';
import type { ConnectionOptions, ConsumerInfo, JetStreamManager } from 'nats';

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

/**
 * Waits until every durable consumer with work to do (pending or unacknowledged commits) has
 * acknowledged one more since the call: no feed is stuck, though under a load it may still lag
 * (one commit at a time, it drains its backlog at its own pace). Answers how long that took (how
 * long the feeds needed to move again after a fault) and the largest backlog seen then.
 */
export async function waitUntilFeedsMove(
  options: ConnectionOptions,
  timeoutMs = 120_000,
): Promise<{ movingMs: number; backlog: number }> {
  const started = Date.now();
  const nc = await connect(options);
  try {
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    let floors: Map<string, number> | undefined;
    let reported = started;
    for (;;) {
      floors ??= await ackFloors(jsm).catch(() => undefined);
      const feeds = floors ? await feedsSince(jsm, floors).catch(() => undefined) : undefined;
      const stuck = feeds?.stuck ?? ['no consumer list yet'];
      if (feeds && stuck.length === 0) return { movingMs: Date.now() - started, backlog: feeds.backlog };
      if (Date.now() - started > timeoutMs) throw new Error(`event feeds stuck after ${timeoutMs} ms: ${stuck.join('; ')}`);
      // A slow recovery says which feeds hold it up (in the test's output).
      if (Date.now() - reported > 15_000) {
        reported = Date.now();
        console.log(`event feeds stuck after ${reported - started} ms: ${stuck.join('; ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await nc.close();
  }
}

async function durableConsumers(jsm: JetStreamManager): Promise<ConsumerInfo[]> {
  const consumers: ConsumerInfo[] = [];
  for await (const stream of jsm.streams.list())
    for await (const consumer of jsm.consumers.list(stream.config.name))
      if (consumer.config.durable_name) consumers.push(consumer);
  return consumers;
}

async function ackFloors(jsm: JetStreamManager): Promise<Map<string, number>> {
  const consumers = await durableConsumers(jsm);
  return new Map(consumers.map((consumer) => [`${consumer.stream_name}/${consumer.name}`, consumer.ack_floor.stream_seq]));
}

async function feedsSince(jsm: JetStreamManager, floors: Map<string, number>) {
  const consumers = await durableConsumers(jsm);
  const busy = consumers.filter((consumer) => consumer.num_pending > 0 || consumer.num_ack_pending > 0);
  const stuck = busy
    .filter((consumer) => consumer.ack_floor.stream_seq <= (floors.get(`${consumer.stream_name}/${consumer.name}`) ?? 0))
    .map(
      (consumer) =>
        `${consumer.name}: acknowledged up to ${consumer.ack_floor.stream_seq}, delivered up to ${consumer.delivered.stream_seq}, ` +
        `${consumer.num_ack_pending} unacknowledged, ${consumer.num_redelivered} redelivered, ${consumer.num_waiting} pulls waiting, ` +
        `${consumer.num_pending} pending, leader ${consumer.cluster?.leader ?? 'none'}`,
    );
  return { stuck, backlog: Math.max(0, ...busy.map((consumer) => consumer.num_pending)) };
}

/**
 * Waits until each service's read models have applied every commit of its event store
 * (`sesame_projection_lag_commits` 0 on its /metrics): a live read model compared with one rebuilt
 * from zero is only final then, and a subscription that stopped delivering is named here rather
 * than as a difference between the two.
 */
export async function waitUntilProjectionsCaughtUp(metricsUrls: string[], timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const behind = (await Promise.all(metricsUrls.map(projectionsBehind))).flat();
    if (behind.length === 0) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`read models behind their event store after ${timeoutMs} ms: ${behind.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function projectionsBehind(metricsUrl: string): Promise<string[]> {
  const text = await fetch(metricsUrl).then((response) => response.text());
  return text
    .split('\n')
    .filter((line) => line.startsWith('sesame_projection_lag_commits{') && !line.endsWith(' 0'))
    .map((line) => `${new URL(metricsUrl).port} ${line}`);
}
