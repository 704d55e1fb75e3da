import { AckPolicy, DeliverPolicy, JSONCodec, nanos } from 'nats';
import type { ConsumerMessages, JsMsg, NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import type { ServiceName } from '@sesame/contracts';
import type { Commit, RecordedEvent, Subscription } from '../event-store/event-store.port';
import type { Logger } from '../logging/logger';
import { jetStreamName } from '../runtime/stores';
import { keepInProgress } from './in-progress';
import { stopConsuming } from './consume-loop';
import { SpanKind, continueTrace } from '../tracing/spans';

export interface ServiceEventFeedOptions {
  nc: NatsConnection;
  prefix: string;
  /** The service whose events to read. */
  source: ServiceName;
  /** Durable consumer name: one per reacting component; replicas share it. */
  consumer: string;
  /** Only the streams of this category (`userMetakey`): the consumer is not sent the others. */
  category?: string;
  onCommit(commit: Commit): Promise<void>;
  logger: Logger;
  /**
   * How long a commit handed to a replica that then dies stays unseen by the others: the
   * consumer's ack wait. A handler that runs longer keeps its commit with progress heartbeats.
   */
  ackWaitMs?: number;
}

/** Short, so that a crashed replica's commit is redelivered within seconds (one commit in flight holds the feed). */
export const defaultAckWaitMs = 10_000;

const codec = JSONCodec<{ events: RecordedEvent[] }>();

/**
 * Another service's events, for reactions across services (DESIGN.md section 3): a durable
 * JetStream consumer on the source service's events stream, acknowledged after the handler
 * succeeds, redelivered otherwise. One commit is in flight at a time, so commits arrive in
 * order; delivery is at least once, so handlers must be idempotent (dedupe by event id).
 * With EventStoreDB as the store, the relay fills the same JetStream stream.
 */
export function subscribeToServiceEvents(options: ServiceEventFeedOptions): Subscription {
  const stream = jetStreamName(options.prefix, options.source);
  const durable = options.consumer.replace(/[^A-Za-z0-9_-]/g, '_');
  const ackWaitMs = options.ackWaitMs ?? defaultAckWaitMs;
  let stopped = false;
  let messages: ConsumerMessages | undefined;

  const run = async () => {
    for (let attempt = 0; !stopped; attempt++) {
      try {
        const jsm = await options.nc.jetstreamManager();
        await jsm.consumers.add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: `${eventSubjectPrefix(options.prefix, options.source)}.events.${options.category ? `${options.category}.>` : '>'}`,
          max_ack_pending: 1,
          ack_wait: nanos(ackWaitMs),
          max_deliver: -1,
        });
        const consumer = await options.nc.jetstream().consumers.get(stream, durable);
        messages = await consumer.consume({ max_messages: 64 });
        attempt = 0;
        for await (const message of messages) {
          await react(message, options, durable, ackWaitMs);
          if (stopped) break;
        }
      } catch (error) {
        // Stopped, or the connection is closed for good (a draining process).
        if (stopped || options.nc.isClosed()) break;
        // Usually the source service has not created its stream yet.
        if (attempt > 2) options.logger.warn({ err: error, stream, consumer: durable }, 'event feed not ready; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
  };
  const running = run();
  return {
    stop: async () => {
      stopped = true;
      await stopConsuming(options.nc.isClosed() ? undefined : messages, running);
    },
  };
}

/** Runs the handler on one commit, telling the server it is in progress; acknowledges it, or asks for it again later. */
async function react(message: JsMsg, options: ServiceEventFeedOptions, durable: string, ackWaitMs: number): Promise<void> {
  const stopHeartbeat = keepInProgress(message, ackWaitMs);
  try {
    const { events } = codec.decode(message.data);
    await continueTrace(
      events[0]?.metadata,
      `react ${durable}`,
      { kind: SpanKind.CONSUMER, attributes: { 'messaging.consumer.group.name': durable } },
      () => options.onCommit({ position: BigInt(message.seq), events }),
    );
    message.ack();
  } catch (error) {
    options.logger.error({ err: error, consumer: durable, seq: message.seq }, 'event reaction failed; will retry');
    message.nak(Math.min(30_000, 500 * 2 ** Math.min(message.info.redeliveryCount, 6)));
  } finally {
    stopHeartbeat();
  }
}
