import { AckPolicy, DeliverPolicy, JSONCodec, nanos } from 'nats';
import type { ConsumerMessages, JsMsg, NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import type { ServiceName } from '@sesame/contracts';
import type { Commit, RecordedEvent, Subscription } from '../event-store/event-store.port';
import type { Logger } from '../logging/logger';
import { jetStreamName } from '../runtime/stores';
import { keepInProgress } from './in-progress';
import { stopConsumingWithin } from './consume-loop';
import { KeyedLanes } from './keyed-lanes';
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
  /**
   * Commits handled at once (1 by default: one after the other, in order). Above 1, the commits of
   * one stream still run one after the other in order, those of other streams in parallel, each
   * acknowledged when its handler ends; a commit asked again after a failure may then come after
   * later commits of its stream.
   */
  parallelCommits?: number;
}

/** Short, so that a crashed replica's commit is redelivered within seconds (one commit in flight holds the feed). */
export const defaultAckWaitMs = 10_000;

/**
 * How long each pull request waits at the consumer's leader. nats.js takes two missed heartbeats
 * (every half of this) as a lost pull, checks the consumer and pulls again, waiting this long
 * between failed checks: a pull left at a leader that died or was cut off (a new leader knows
 * nothing of it) holds the feed that long. Its default, 30 s, held feeds for minutes after a
 * partition of a 3-node cluster (test/reliability/cluster.reliability.spec.ts).
 */
const pullExpiresMs = 5_000;

/**
 * How long a stopping feed waits for the reaction in hand. Retries already stop at once; an
 * attempt waiting on another service that does not answer (a cluster run's rolling restart) held
 * identity past its shutdown deadline, so it exited 1.
 */
const stopWithinMs = 2_000;

const codec = JSONCodec<{ events: RecordedEvent[] }>();

/**
 * Another service's events, for reactions across services (DESIGN.md section 3): a durable
 * JetStream consumer on the source service's events stream, acknowledged after the handler
 * succeeds, which is tried again in place until it does. One commit is in flight at a time by default, so commits arrive
 * in order (`parallelCommits` keeps the order per stream only); delivery is at least once, so
 * handlers must be idempotent (dedupe by event id).
 * With EventStoreDB as the store, the relay fills the same JetStream stream.
 */
export function subscribeToServiceEvents(options: ServiceEventFeedOptions): Subscription {
  const stream = jetStreamName(options.prefix, options.source);
  const durable = options.consumer.replace(/[^A-Za-z0-9_-]/g, '_');
  const ackWaitMs = options.ackWaitMs ?? defaultAckWaitMs;
  const parallel = options.parallelCommits ?? 1;
  let stopped = false;
  let messages: ConsumerMessages | undefined;

  const run = async () => {
    for (let attempt = 0; !stopped; attempt++) {
      try {
        const jsm = await options.nc.jetstreamManager();
        // Creates the durable consumer, or updates an existing one (an older version's, one commit in flight).
        await jsm.consumers.add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: `${eventSubjectPrefix(options.prefix, options.source)}.events.${options.category ? `${options.category}.>` : '>'}`,
          max_ack_pending: parallel,
          ack_wait: nanos(ackWaitMs),
          max_deliver: -1,
        });
        const consumer = await options.nc.jetstream().consumers.get(stream, durable);
        messages = await consumer.consume({ max_messages: 64, expires: pullExpiresMs });
        attempt = 0;
        const lanes = parallel > 1 ? new KeyedLanes(parallel) : null;
        const reading = messages;
        for await (const message of messages) {
          const events = decodeCommit(message, options.logger, durable);
          const handle = () => react(message, events ?? [], options, durable, ackWaitMs, () => stopped);
          // One at a time: a failure to acknowledge (the connection closed) leaves the loop.
          if (events && !lanes) await handle();
          // In parallel: such a failure ends the reading, then the loop.
          else if (events && lanes)
            await lanes.add(events[0]?.stream ?? '', () => handle().catch(() => void reading.close().catch(() => undefined)));
          if (stopped) break;
        }
        await lanes?.idle();
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
      const inTime = await stopConsumingWithin(options.nc.isClosed() ? undefined : messages, running, stopWithinMs);
      if (!inTime)
        options.logger.warn(
          { consumer: durable },
          'event feed stopped with a reaction still running; its commit goes to another replica',
        );
    },
  };
}

/** The commit's events; null (and asked again later, as a failed reaction) when its body is not one. */
function decodeCommit(message: JsMsg, logger: Logger, durable: string): RecordedEvent[] | null {
  try {
    return codec.decode(message.data).events;
  } catch (error) {
    logger.error({ err: error, consumer: durable, seq: message.seq }, 'event reaction failed; will retry');
    message.nak(retryDelayMs(message.info.redeliveryCount));
    return null;
  }
}

const retryDelayMs = (attempt: number) => Math.min(30_000, 500 * 2 ** Math.min(attempt, 6));

/**
 * Runs the handler on one commit, telling the server it is in progress, and acknowledges it. A
 * failed handler is tried again here, after a growing delay (the commit kept in progress
 * meanwhile), rather than given back to the server to redeliver: on nats-server 2.9.10 a commit
 * given back (nak with a delay) during a partition of the cluster was not redelivered for over 2
 * minutes, holding the feed. A replica that stops meanwhile leaves it: another replica gets it
 * after its ack wait (a commit given back would go to the stopped replica's pull, still open at the server).
 */
async function react(
  message: JsMsg,
  events: RecordedEvent[],
  options: ServiceEventFeedOptions,
  durable: string,
  ackWaitMs: number,
  isStopped: () => boolean,
): Promise<void> {
  const stopHeartbeat = keepInProgress(message, ackWaitMs, isStopped);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await continueTrace(
          events[0]?.metadata,
          `react ${durable}`,
          { kind: SpanKind.CONSUMER, attributes: { 'messaging.consumer.group.name': durable } },
          () => options.onCommit({ position: BigInt(message.seq), events }),
        );
        break;
      } catch (error) {
        options.logger.error({ err: error, consumer: durable, seq: message.seq, attempt }, 'event reaction failed; will retry');
        if (await stoppedWithin(retryDelayMs(attempt), isStopped)) return;
      }
    }
    message.ack();
  } finally {
    stopHeartbeat();
  }
}

/** Waits `ms`, or less if the feed stops meanwhile: answers whether it stopped. */
async function stoppedWithin(ms: number, isStopped: () => boolean): Promise<boolean> {
  for (const until = Date.now() + ms; !isStopped() && Date.now() < until;)
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, until - Date.now())));
  return isStopped();
}
