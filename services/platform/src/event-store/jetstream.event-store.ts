import { DeliverPolicy, DiscardPolicy, JSONCodec, RetentionPolicy, StorageType, nanos } from 'nats';
import type { ConsumerMessages, JetStreamClient, JetStreamManager, NatsConnection, StoredMsg, StreamInfo } from 'nats';
import { ConcurrencyError } from './event-store.port';
import { isJetStreamWriteConflict, jetStreamErrorCode } from '../messaging/jetstream-errors';
import type {
  AppendOptions,
  AppendResult,
  Commit,
  EventStore,
  NewEvent,
  ReadStreamOptions,
  ReadStreamResult,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from './event-store.port';
import { deliverWithRetry } from './deliver';
import { CommitCache } from './commit-cache';
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
  /** How long a subscription may go without a commit while the stream holds newer ones before it reads them from the stream's leader and replaces its consumer (default 5 s). */
  stallMs?: number;
}

type MessageQuery = { last_by_subj: string } | { seq: number } | { seq: number; next_by_subj: string };

/**
 * The message gets used here: nats.js's direct get (present at runtime, absent from its exported
 * types), and its stored-message get, typed for `seq` and `last_by_subj` only though nats-server
 * answers `next_by_subj` too (the request is the same JSON).
 */
interface MessageGets {
  getMessage(stream: string, query: MessageQuery): Promise<StoredMsg>;
}

/** A subscription's progress, for `watchStalls`: when it last moved, whether a commit is in hand, the head it stalled short of. */
interface Progress {
  at: number;
  busy: boolean;
  stalledAt?: bigint;
}

/** How many commits a subscription past a silent consumer asks for at once. */
const readWindow = 32;

/**
 * How long a read of a commit the stream holds (its sequence known) asks again when it gets no
 * answer or "not found" (no stream leader yet after a node's loss) before failing.
 */
const readRetryMs = 5_000;

/** One JetStream message is one commit: the events one command appended to one stream. */
interface CommitPayload {
  v: 1;
  events: RecordedEvent[];
}

const codec = JSONCodec<CommitPayload>();

/**
 * Event store on NATS JetStream (DESIGN.md section 3). Optimistic concurrency uses
 * `Nats-Expected-Last-Subject-Sequence`; the global position is the stream sequence.
 */
export class JetStreamEventStore implements EventStore {
  /** What this instance last saw of each stream: saves a lookup on append and rereading a stream's history. */
  private readonly known = new CommitCache();

  private constructor(
    /** nats.js's manager, with its message gets typed as used here (`MessageGets`). */
    private readonly jsm: JetStreamManager & { direct: MessageGets; streams: MessageGets },
    private readonly js: JetStreamClient,
    private readonly options: JetStreamEventStoreOptions,
    /**
     * The stream has more than one replica: its commits are read from its leader (stored-message
     * gets), not by direct get. Any replica answers a direct get, and one behind the leader (after
     * a partition, a restart) answers with the stream as it was: a command then decides on a past
     * state (a SCIM PATCH of a user pushed just before answered 404 in a cluster run).
     */
    private readonly replicated = false,
  ) {}

  static async open(nc: NatsConnection, options: JetStreamEventStoreOptions): Promise<JetStreamEventStore> {
    const jsm = await nc.jetstreamManager();
    const subjects = [`${options.subjectPrefix}.events.>`];
    let info: StreamInfo;
    try {
      info = await jsm.streams.info(options.streamName);
      if (info.config.subjects?.join() !== subjects.join())
        throw new Error(`JetStream stream ${options.streamName} exists with other subjects: ${info.config.subjects?.join()}`);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      info = await jsm.streams.add({
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
    return new JetStreamEventStore(asMessageGets(jsm), nc.jetstream(), options, info.config.num_replicas > 1);
  }

  /**
   * Another service's store, to follow only (`subscribeToAll`, `headPosition`): its stream is
   * neither created nor appended to here; until its owner creates it, the subscription retries.
   */
  static async follow(
    nc: NatsConnection,
    options: JetStreamEventStoreOptions,
  ): Promise<Pick<EventStore, 'subscribeToAll' | 'headPosition'>> {
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    return new JetStreamEventStore(asMessageGets(jsm), nc.jetstream(), options);
  }

  private subjectOf(stream: string): string {
    const { category, id } = parseStreamName(stream);
    return `${this.options.subjectPrefix}.events.${category}.${encodeSubjectToken(id)}`;
  }

  private async lastCommit(subject: string): Promise<{ seq: number; data: Uint8Array; events: RecordedEvent[] } | null> {
    let message: StoredMsg;
    try {
      message = await this.get({ last_by_subj: subject });
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    // A copy: the message's bytes may be a view of a larger buffer that keeping them would pin.
    return { seq: message.seq, data: message.data.slice(), events: codec.decode(message.data).events };
  }

  /**
   * Every read asks JetStream for the stream's last commit (`get`: its leader's when replicated); the commits
   * before it come from what this instance kept of the stream, and JetStream is read only from
   * the first commit it did not see (from the start when it kept nothing). A read `fromRevision` the
   * last commit holds needs nothing more, and otherwise decodes only the commits it answers.
   */
  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    const from = Math.max(0, options.fromRevision ?? 0);
    const subject = this.subjectOf(stream);
    const last = await this.lastCommit(subject);
    if (!last) {
      this.known.forget(stream);
      return { revision: -1, events: [] };
    }
    const lastRevision = (last.events.at(-1) as RecordedEvent).revision;
    const firstRevision = (last.events[0] as RecordedEvent).revision;
    if (firstRevision === 0) {
      this.known.remember(stream, { revision: lastRevision, seq: last.seq, commits: [last.data] });
      return { revision: lastRevision, events: from === 0 ? last.events : last.events.filter((event) => event.revision >= from) };
    }
    if (from >= firstRevision) {
      this.rememberLast(stream, last, firstRevision, lastRevision);
      return { revision: lastRevision, events: last.events.filter((event) => event.revision >= from) };
    }
    let commits = await this.commitsUpTo(stream, subject, last);
    const suffix = from > 0 ? eventsFrom(commits, from, lastRevision) : null;
    if (suffix) {
      this.known.remember(stream, { revision: lastRevision, seq: last.seq, commits });
      return { revision: lastRevision, events: suffix };
    }
    let events = eventsOf(commits);
    // What was kept does not lead to this commit (never seen yet): read the whole stream again.
    if (!isWhole(events)) events = eventsOf((commits = await this.readCommits(subject, 0, last)));
    this.known.remember(stream, { revision: lastRevision, seq: last.seq, ...(isWhole(events) ? { commits } : {}) });
    return { revision: lastRevision, events };
  }

  /** `last` follows what this instance kept of the stream (or is what it kept): kept too, without reading JetStream. */
  private rememberLast(stream: string, last: { seq: number; data: Uint8Array }, firstRevision: number, lastRevision: number) {
    const known = this.known.get(stream);
    if (known?.commits && known.seq < last.seq && firstRevision === known.revision + 1)
      this.known.remember(stream, { revision: lastRevision, seq: last.seq, commits: [...known.commits, last.data] });
  }

  /** The stream's commits up to `last`: those this instance kept, then the ones appended since. */
  private async commitsUpTo(stream: string, subject: string, last: { seq: number; data: Uint8Array; events: RecordedEvent[] }) {
    const known = this.known.get(stream);
    if (!known?.commits || known.seq > last.seq) return this.readCommits(subject, 0, last);
    if (known.seq === last.seq) return known.commits;
    if ((last.events[0] as RecordedEvent).revision === known.revision + 1) return [...known.commits, last.data];
    return [...known.commits, ...(await this.readCommits(subject, known.seq + 1, last))];
  }

  /**
   * The raw commits of one subject from sequence `from` (0: the start) up to its `last` one (in
   * hand), one message get each (`next_by_subj`): no consumer to create, keep alive or lose. An
   * ordered consumer read them before, and in cluster runs (after a node's loss, or while a
   * replica caught up after a partition) some stayed silent for good: the commands and
   * reactions reading through them failed or hung for minutes.
   */
  private async readCommits(subject: string, from: number, last: { seq: number; data: Uint8Array }): Promise<Uint8Array[]> {
    const commits: Uint8Array[] = [];
    for (let next = Math.max(from, 1); next < last.seq;) {
      const message = await this.held(
        { seq: next, next_by_subj: subject },
        () => `reading ${subject} from sequence ${next} to ${last.seq}`,
      );
      if (message.seq >= last.seq) break;
      commits.push(message.data.slice());
      next = message.seq + 1;
    }
    commits.push(last.data);
    return commits;
  }

  /**
   * One message of the stream: from its leader when the stream is replicated (`replicated`), else
   * by direct get (its one replica answers; lighter than a stored-message get).
   */
  private get(query: MessageQuery): Promise<StoredMsg> {
    const { streamName } = this.options;
    return this.replicated ? this.jsm.streams.getMessage(streamName, query) : this.jsm.direct.getMessage(streamName, query);
  }

  /**
   * A message the stream holds (its sequence below one the leader named), by `get`: asked again
   * while no answer comes or the answer is "not found" (a stream leader being elected, a replica
   * behind it) for up to `readRetryMs`, then fails with `describe()`.
   */
  private async held(
    query: MessageQuery,
    describe: () => string,
    get: (query: MessageQuery) => Promise<StoredMsg> = (q) => this.get(q),
  ): Promise<StoredMsg> {
    const deadline = Date.now() + readRetryMs;
    for (;;) {
      try {
        return await get(query);
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`${describe()}: ${isNotFound(error) ? 'not found' : (error as Error).message}`, { cause: error });
        await sleep(100);
      }
    }
  }

  async appendToStream(stream: string, events: NewEvent[], options: AppendOptions): Promise<AppendResult> {
    const subject = this.subjectOf(stream);
    const { expectedRevision } = options;
    let expectedSeq = 0;
    let currentRevision = -1;
    const known = this.known.get(stream);
    if (typeof expectedRevision === 'number' && known?.revision === expectedRevision) {
      expectedSeq = known.seq;
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
    const commit = codec.encode({ v: 1, events: recorded });
    try {
      // The message id names the revision the commit takes: on a replicated stream of nats-server
      // before 2.9.21 the expected sequence alone does not keep two writers from both appending at
      // one revision (nats-server#4320); the stream drops the second as a duplicate, a conflict
      // unless the commit kept is this one (a publish sent twice); while the other writer's commit
      // is being stored, 2.10 and later refuse ours (`duplicate message id is in process`): a conflict.
      const ack = await this.js.publish(subject, commit, {
        msgID: `${stream}@${currentRevision + 1}`,
        expect: { lastSubjectSequence: expectedSeq },
      });
      if (ack.duplicate && !(await this.holds(ack.seq, (recorded[0] as RecordedEvent).id)))
        throw new ConcurrencyError(stream, expectedRevision);
      const nextRevision = currentRevision + recorded.length;
      // What this instance kept still ends where the commit follows: it now ends with the commit.
      const before = this.known.get(stream);
      const follows = currentRevision === -1 ? [] : before?.seq === expectedSeq ? before.commits : undefined;
      this.known.remember(stream, {
        revision: nextRevision,
        seq: ack.seq,
        ...(follows ? { commits: [...follows, commit] } : {}),
      });
      return { nextRevision, position: BigInt(ack.seq), events: recorded };
    } catch (error) {
      this.known.forget(stream);
      if (isJetStreamWriteConflict(error)) throw new ConcurrencyError(stream, expectedRevision);
      throw error;
    }
  }

  /** Whether the commit at `seq` is the one whose first event is `eventId`. */
  private async holds(seq: number, eventId: string): Promise<boolean> {
    const message = await this.get({ seq });
    return codec.decode(message.data).events[0]?.id === eventId;
  }

  /**
   * Commits from `from` on, in order, through an ordered consumer. A consumer that stops
   * delivering while the stream has commits past the position (`watchStalls`) is closed, the
   * commits up to the stream's head then read from its leader (`deliverFromLeader`), and a new consumer
   * opened from there. After a kill -9 of a NATS node, or while a replica of the stream caught up
   * after a partition, cluster runs found ordered consumers silent for good, one after another: a
   * service's own read models then lagged its writes for minutes.
   */
  subscribeToAll({ from, onCommit, onPosition }: SubscribeOptions): Subscription {
    let stopped = false;
    let messages: ConsumerMessages | undefined;
    let position = from;
    const progress: Progress = { at: Date.now(), busy: false };
    const deliver = async (commit: Commit): Promise<boolean> => {
      progress.busy = true;
      const delivered = await deliverWithRetry(
        () => onCommit(commit),
        () => stopped,
        this.options.onError,
      );
      progress.busy = false;
      if (!delivered) return false;
      position = commit.position;
      progress.at = Date.now();
      onPosition?.(position);
      return !stopped;
    };
    const run = async () => {
      while (!stopped) {
        try {
          const stalledAt = progress.stalledAt;
          progress.stalledAt = undefined;
          if (stalledAt !== undefined) await this.deliverFromLeader(position, stalledAt, deliver);
          if (stopped) break;
          const consumer = await this.js.consumers.get(this.options.streamName, {
            filterSubjects: `${this.options.subjectPrefix}.events.>`,
            ...(position > 0n ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Number(position) + 1 } : {}),
          });
          messages = await consumer.consume({ max_messages: 512 });
          progress.at = Date.now();
          if (stopped) break;
          for await (const message of messages)
            if (!(await deliver({ position: BigInt(message.seq), events: codec.decode(message.data).events }))) break;
        } catch (error) {
          if (stopped) break;
          this.options.onError?.(error);
          await sleep(500);
        }
      }
    };
    const running = run();
    const watchdog = this.watchStalls(
      progress,
      () => position,
      () => messages,
    );
    return {
      stop: async () => {
        stopped = true;
        clearInterval(watchdog);
        await stopConsuming(messages, running);
      },
    };
  }

  /**
   * The commits after `position` up to `head`, read from the stream's leader (`readWindow` at a
   * time; `head` is the leader's, which a replica may not hold yet) and handed to `deliver` in
   * order, until it declines one.
   */
  private async deliverFromLeader(position: bigint, head: bigint, deliver: (commit: Commit) => Promise<boolean>): Promise<void> {
    for (let next = Number(position) + 1; next <= Number(head); next += readWindow) {
      const last = Math.min(Number(head), next + readWindow - 1);
      const sequences = Array.from({ length: last - next + 1 }, (_, index) => next + index);
      const messages = await Promise.all(
        sequences.map((seq) =>
          this.held(
            { seq },
            () => `reading the commit at sequence ${seq}`,
            (query) => this.jsm.streams.getMessage(this.options.streamName, query),
          ),
        ),
      );
      for (const message of messages)
        if (!(await deliver({ position: BigInt(message.seq), events: codec.decode(message.data).events }))) return;
    }
  }

  /**
   * Closes a subscription's consumer when no commit arrived for `stallMs` while the stream holds
   * commits past its position (none in hand), noting that head (`stalledAt`): its loop reads up
   * to it from the stream's leader, then opens a new consumer from there.
   */
  private watchStalls(progress: Progress, position: () => bigint, messages: () => ConsumerMessages | undefined) {
    const stallMs = this.options.stallMs ?? 5_000;
    const stalled = () => !progress.busy && progress.stalledAt === undefined && Date.now() - progress.at >= stallMs;
    const timer = setInterval(
      () => {
        if (!stalled()) return;
        this.headPosition()
          .then((head) => {
            if (head <= position() || !stalled()) return;
            progress.at = Date.now();
            progress.stalledAt = head;
            this.options.onError?.(
              new Error(
                `event subscription silent at ${position()} with the stream at ${head}: read from the stream's leader, consumer replaced`,
              ),
            );
            messages()
              ?.close()
              .catch(() => undefined);
          })
          .catch(() => undefined);
      },
      Math.max(100, stallMs / 4),
    );
    timer.unref();
    return timer;
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
    this.known.clear();
  }
}

const asMessageGets = (jsm: JetStreamManager) => jsm as JetStreamManager & { direct: MessageGets; streams: MessageGets };

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    code === 404 || code === '404' || jetStreamErrorCode(error) === 10059 || /not found/i.test(String((error as Error)?.message))
  );
}

const eventsOf = (commits: Uint8Array[]) => commits.flatMap((commit) => codec.decode(commit).events);

/**
 * The events from revision `from` to `to` of a stream's commits, decoding only the newest commits
 * that hold them; null unless they run unbroken from `from` to `to`.
 */
function eventsFrom(commits: Uint8Array[], from: number, to: number): RecordedEvent[] | null {
  const newestFirst: RecordedEvent[][] = [];
  for (let index = commits.length - 1; index >= 0; index--) {
    const { events } = codec.decode(commits[index] as Uint8Array);
    newestFirst.push(events);
    if ((events[0] as RecordedEvent).revision <= from) break;
  }
  const events = newestFirst
    .reverse()
    .flat()
    .filter((event) => event.revision >= from);
  return events.length === to - from + 1 && events.every((event, index) => event.revision === from + index) ? events : null;
}

/** Events numbered 0, 1, 2... with none missing: a whole stream. */
const isWhole = (events: RecordedEvent[]) => events.every((event, index) => event.revision === index);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
