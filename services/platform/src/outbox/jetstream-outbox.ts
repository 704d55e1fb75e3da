import { DiscardPolicy, JSONCodec, RetentionPolicy, StorageType, nanos } from 'nats';
import type { JetStreamManager, NatsConnection, StoredMsg } from 'nats';
import { encodeSubjectToken } from '../event-store/stream-name';

const keepMessages = 10_000;
const hourMs = 3_600_000;

/**
 * How long an outbox keeps its messages: a week for a developer; an hour in production (where an
 * outbox runs only when explicitly allowed), by when the reset codes and sign-in links it holds
 * have expired.
 */
export const outboxRetentionMs = (mode: 'development' | 'production') => (mode === 'production' ? hourMs : 7 * 24 * hourMs);

/** What an outbox keeps: a message to one recipient (email address or phone number). */
export interface OutboxItem {
  id: string;
  to: string;
  tags?: string[];
}

export interface OutboxQuery {
  to?: string;
  tag?: string;
  /** The newest `limit` messages (oldest first). */
  limit?: number;
}

/**
 * A local outbox on JetStream (mail, SMS): every message is kept for `keepForMs` (see
 * `outboxRetentionMs`) in a stream shared by the deployment (`<PREFIX>_<NAME>`, subjects
 * `<prefix>.<name>.<recipient>`), so that any service can send and a developer can read them all
 * in one place.
 */
export class JetStreamOutbox<T extends OutboxItem> {
  private readonly codec = JSONCodec<T>();
  private ready?: Promise<void>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly name: 'outbox' | 'sms_outbox',
    private readonly keepForMs = outboxRetentionMs('development'),
  ) {}

  static streamName = (prefix: string, name: string) => `${prefix}_${name}`.toUpperCase();

  async keep(item: T): Promise<void> {
    this.ready ??= this.nc.jetstreamManager().then((jsm) => this.ensureStream(jsm));
    await this.ready;
    await this.nc.jetstream().publish(this.recipientSubject(item.to), this.codec.encode(item), { msgID: item.id });
  }

  /** Oldest first; an outbox nobody wrote to yet is empty. */
  async read(query: OutboxQuery = {}): Promise<T[]> {
    const jsm = (await this.nc.jetstreamManager()) as JetStreamManager & {
      direct: { getMessage(stream: string, query: { last_by_subj: string }): Promise<StoredMsg> };
    };
    const stream = JetStreamOutbox.streamName(this.prefix, this.name);
    const filter = query.to ? this.recipientSubject(query.to) : `${this.subjectPrefix()}.>`;
    let lastSeq: number;
    try {
      if (query.to) lastSeq = (await jsm.direct.getMessage(stream, { last_by_subj: filter })).seq;
      else lastSeq = (await jsm.streams.info(stream)).state.last_seq;
    } catch {
      return [];
    }
    if (lastSeq === 0) return [];
    const consumer = await this.nc.jetstream().consumers.get(stream, { filterSubjects: filter });
    const messages = await consumer.consume({ max_messages: 256 });
    const limit = query.limit ?? 100;
    const found: T[] = [];
    try {
      for await (const message of messages) {
        const item = this.codec.decode(message.data);
        if (!query.tag || item.tags?.includes(query.tag)) {
          found.push(item);
          if (found.length > limit) found.shift();
        }
        if (message.seq >= lastSeq) break;
      }
    } finally {
      await messages.close();
    }
    return found;
  }

  private subjectPrefix = () => `${this.prefix}.${this.name.replace('_', '-')}`;
  private recipientSubject = (to: string) => `${this.subjectPrefix()}.${encodeSubjectToken(to.trim().toLowerCase())}`;

  private async ensureStream(jsm: JetStreamManager): Promise<void> {
    const name = JetStreamOutbox.streamName(this.prefix, this.name);
    const maxAge = nanos(this.keepForMs);
    let existing;
    try {
      existing = await jsm.streams.info(name);
    } catch {
      await jsm.streams.add({
        name,
        subjects: [`${this.subjectPrefix()}.>`],
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        discard: DiscardPolicy.Old,
        max_msgs: keepMessages,
        max_age: maxAge,
        allow_direct: true,
      });
      return;
    }
    // A stream created under another mode keeps its messages as long as this one says.
    if (existing.config.max_age !== maxAge) await jsm.streams.update(name, { ...existing.config, max_age: maxAge });
  }
}
