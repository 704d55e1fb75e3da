import { randomUUID } from 'node:crypto';
import { DiscardPolicy, JSONCodec, RetentionPolicy, StorageType, nanos } from 'nats';
import type { JetStreamManager, NatsConnection, StoredMsg } from 'nats';
import { encodeSubjectToken } from '../event-store/stream-name';
import type { Logger } from '../logging/logger';
import type { MailMessage, Mailer, SentMail } from './mail.port';

const codec = JSONCodec<SentMail>();
const keepMessages = 10_000;
const keepForMs = 7 * 86_400_000;

/** JetStream stream of the outbox of one deployment, e.g. `SESAME_OUTBOX`. */
export const outboxStreamName = (prefix: string) => `${prefix}_outbox`.toUpperCase();
const subjectPrefix = (prefix: string) => `${prefix}.outbox`;
const recipientSubject = (prefix: string, to: string) =>
  `${subjectPrefix(prefix)}.${encodeSubjectToken(to.trim().toLowerCase())}`;

async function ensureOutboxStream(jsm: JetStreamManager, prefix: string): Promise<void> {
  const name = outboxStreamName(prefix);
  try {
    await jsm.streams.info(name);
  } catch {
    await jsm.streams.add({
      name,
      subjects: [`${subjectPrefix(prefix)}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_msgs: keepMessages,
      max_age: nanos(keepForMs),
      allow_direct: true,
    });
  }
}

/**
 * The local outbox: every message is logged and kept in a JetStream stream shared by the
 * deployment, so that any service can send and a developer can read them all in one place
 * (`GET /dev/outbox` on the gateway outside production).
 */
export class OutboxMailer implements Mailer {
  private ready?: Promise<void>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {}

  async send(message: MailMessage): Promise<SentMail> {
    this.ready ??= this.nc.jetstreamManager().then((jsm) => ensureOutboxStream(jsm, this.prefix));
    await this.ready;
    const sent: SentMail = {
      ...message,
      id: randomUUID(),
      from: this.from,
      sent_at: new Date().toISOString(),
      transport: 'outbox',
    };
    await this.nc.jetstream().publish(recipientSubject(this.prefix, message.to), codec.encode(sent), { msgID: sent.id });
    this.logger.info(
      { mail: { id: sent.id, to: sent.to, subject: sent.subject, links: sent.links, tags: sent.tags } },
      'mail kept in the local outbox',
    );
    return sent;
  }
}

export interface OutboxQuery {
  to?: string;
  tag?: string;
  /** The newest `limit` messages (oldest first). */
  limit?: number;
}

/** Reads the local outbox, oldest first; an outbox nobody wrote to yet is empty. */
export async function readOutbox(nc: NatsConnection, prefix: string, query: OutboxQuery = {}): Promise<SentMail[]> {
  const jsm = (await nc.jetstreamManager()) as JetStreamManager & {
    direct: { getMessage(stream: string, query: { last_by_subj: string }): Promise<StoredMsg> };
  };
  const stream = outboxStreamName(prefix);
  const filter = query.to ? recipientSubject(prefix, query.to) : `${subjectPrefix(prefix)}.>`;
  let lastSeq: number;
  try {
    if (query.to) lastSeq = (await jsm.direct.getMessage(stream, { last_by_subj: filter })).seq;
    else lastSeq = (await jsm.streams.info(stream)).state.last_seq;
  } catch {
    return [];
  }
  if (lastSeq === 0) return [];
  const consumer = await nc.jetstream().consumers.get(stream, { filterSubjects: filter });
  const messages = await consumer.consume({ max_messages: 256 });
  const limit = query.limit ?? 100;
  const found: SentMail[] = [];
  try {
    for await (const message of messages) {
      const mail = codec.decode(message.data);
      if (!query.tag || mail.tags?.includes(query.tag)) {
        found.push(mail);
        if (found.length > limit) found.shift();
      }
      if (message.seq >= lastSeq) break;
    }
  } finally {
    await messages.close();
  }
  return found;
}
