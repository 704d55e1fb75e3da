import { DeliverPolicy, DiscardPolicy, JSONCodec, RetentionPolicy, StorageType, nanos } from 'nats';
import type { ConsumerMessages, JetStreamClient, JetStreamManager, NatsConnection, StoredMsg } from 'nats';
import { ConcurrencyError } from './event-store.port';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  NewEvent,
  ReadStreamResult,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './event-store.port';
import { deliverWithRetry } from './deliver';
import { recordEvents } from './new-events';
import { encodeSubjectToken, parseStreamName } from './stream-name';
import { stopConsuming } from '../messaging/consume-loop';

export interface JetStreamEventStoreOptions {
  /** JetStream stream holding this store's commits, e.g. `SESAME_IDENTITY_EVENTS`. */
  streamName: string;
  /** Subject prefix: commits go to `<subjectPrefix>.events.<category>.<id>`. */
  subjectPrefix: string;
  replicas?: number;
  onError?(error: unknown): void;
}

/** The part of nats.js's direct-get API used here (present at runtime, absent from its exported types). */
interface DirectGet {
  getMessage(stream: string, query: { last_by_subj: string }): Promise<StoredMsg>;
}

/** One JetStream message is one commit: the events one command appended to one stream. */
interface CommitPayload {
  v: 1;
  events: RecordedEvent[];
}

const codec = JSONCodec<CommitPayload>();
const wrongLastSequence = 10071;
const cacheLimit = 10_000;

/**
 * Event store on NATS JetStream (DESIGN.md section 3). Optimistic concurrency uses
 * `Nats-Expected-Last-Subject-Sequence`; the global position is the stream sequence.
 */
export class JetStreamEventStore implements EventStore {
  /** Revision and stream sequence of the last commit seen per stream: saves a lookup on append. */
  private readonly lastCommits = new Map<string, { revision: number; seq: number }>();

  private constructor(
    /** The direct-get API exists on nats.js's manager but is missing from its interface type. */
    private readonly jsm: JetStreamManager & { direct: DirectGet },
    private readonly js: JetStreamClient,
    private readonly options: JetStreamEventStoreOptions,
  ) {}

  static async open(nc: NatsConnection, options: JetStreamEventStoreOptions): Promise<JetStreamEventStore> {
    const jsm = await nc.jetstreamManager();
    const subjects = [`${options.subjectPrefix}.events.>`];
    try {
      const info = await jsm.streams.info(options.streamName);
      if (info.config.subjects?.join() !== subjects.join())
        throw new Error(`JetStream stream ${options.streamName} exists with other subjects: ${info.config.subjects?.join()}`);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await jsm.streams.add({
        name: options.streamName,
        subjects,
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        allow_direct: true,
        num_replicas: options.replicas ?? 1,
        duplicate_window: nanos(120_000),
      });
    }
    return new JetStreamEventStore(jsm as JetStreamManager & { direct: DirectGet }, nc.jetstream(), options);
  }

  private subjectOf(stream: string): string {
    const { category, id } = parseStreamName(stream);
    return `${this.options.subjectPrefix}.events.${category}.${encodeSubjectToken(id)}`;
  }

  private async lastCommit(subject: string): Promise<{ seq: number; events: RecordedEvent[] } | null> {
    let message: StoredMsg;
    try {
      message = await this.jsm.direct.getMessage(this.options.streamName, { last_by_subj: subject });
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return { seq: message.seq, events: codec.decode(message.data).events };
  }

  private remember(stream: string, revision: number, seq: number): void {
    this.lastCommits.delete(stream);
    this.lastCommits.set(stream, { revision, seq });
    if (this.lastCommits.size > cacheLimit) this.lastCommits.delete(this.lastCommits.keys().next().value as string);
  }

  async readStream(stream: string): Promise<ReadStreamResult> {
    const subject = this.subjectOf(stream);
    const last = await this.lastCommit(subject);
    if (!last) return { revision: -1, events: [] };
    const lastRevision = (last.events.at(-1) as RecordedEvent).revision;
    this.remember(stream, lastRevision, last.seq);
    if ((last.events[0] as RecordedEvent).revision === 0) return { revision: lastRevision, events: last.events };

    // No explicit deliver_policy: nats.js 2.29's ordered consume() hangs when given `All`.
    const consumer = await this.js.consumers.get(this.options.streamName, { filterSubjects: subject });
    const messages = await consumer.consume({ max_messages: 256 });
    const events: RecordedEvent[] = [];
    try {
      for await (const message of messages) {
        events.push(...codec.decode(message.data).events);
        if (message.seq >= last.seq) break;
      }
    } finally {
      await messages.close();
    }
    return { revision: lastRevision, events };
  }

  async appendToStream(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const subject = this.subjectOf(stream);
    const { expectedRevision } = options;
    let expectedSeq = 0;
    let currentRevision = -1;
    const cached = this.lastCommits.get(stream);
    if (typeof expectedRevision === 'number' && cached?.revision === expectedRevision) {
      expectedSeq = cached.seq;
      currentRevision = expectedRevision;
    } else if (expectedRevision !== 'no_stream') {
      const last = await this.lastCommit(subject);
      currentRevision = last ? (last.events.at(-1) as RecordedEvent).revision : -1;
      if (typeof expectedRevision === 'number' && currentRevision !== expectedRevision)
        throw new ConcurrencyError(stream, expectedRevision, currentRevision);
      expectedSeq = last?.seq ?? 0;
    }
    if (events.length === 0) return { nextRevision: currentRevision, position: BigInt(expectedSeq), events: [] };

    const recorded = recordEvents(stream, events, currentRevision + 1, options.metadata);
    try {
      const ack = await this.js.publish(subject, codec.encode({ v: 1, events: recorded }), {
        msgID: (recorded[0] as RecordedEvent).id,
        expect: { lastSubjectSequence: expectedSeq },
      });
      const nextRevision = currentRevision + recorded.length;
      this.remember(stream, nextRevision, ack.seq);
      return { nextRevision, position: BigInt(ack.seq), events: recorded };
    } catch (error) {
      this.lastCommits.delete(stream);
      if (apiErrorCode(error) === wrongLastSequence) throw new ConcurrencyError(stream, expectedRevision);
      throw error;
    }
  }

  subscribeToAll({ from, onCommit, onPosition }: SubscribeOptions): Subscription {
    let stopped = false;
    let messages: ConsumerMessages | undefined;
    let position = from;
    const run = async () => {
      while (!stopped) {
        try {
          const consumer = await this.js.consumers.get(this.options.streamName, {
            filterSubjects: `${this.options.subjectPrefix}.events.>`,
            ...(position > 0n ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Number(position) + 1 } : {}),
          });
          messages = await consumer.consume({ max_messages: 512 });
          if (stopped) break;
          for await (const message of messages) {
            const commit = { position: BigInt(message.seq), events: codec.decode(message.data).events };
            if (
              !(await deliverWithRetry(
                () => onCommit(commit),
                () => stopped,
                this.options.onError,
              ))
            )
              break;
            position = commit.position;
            onPosition?.(position);
            if (stopped) break;
          }
        } catch (error) {
          if (stopped) break;
          this.options.onError?.(error);
          await sleep(500);
        }
      }
    };
    const running = run();
    return {
      stop: async () => {
        stopped = true;
        await stopConsuming(messages, running);
      },
    };
  }

  async headPosition(): Promise<bigint> {
    const info = await this.jsm.streams.info(this.options.streamName);
    return BigInt(info.state.last_seq);
  }

  /** Deletes the whole JetStream stream (test clean-up). */
  async destroy(): Promise<void> {
    await this.jsm.streams.delete(this.options.streamName);
  }

  async close(): Promise<void> {
    this.lastCommits.clear();
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 404 || code === '404' || apiErrorCode(error) === 10059 || /not found/i.test(String((error as Error)?.message));
}

function apiErrorCode(error: unknown): number | undefined {
  return (error as { api_error?: { err_code?: number } })?.api_error?.err_code;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
