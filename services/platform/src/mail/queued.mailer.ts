import { AckPolicy, JSONCodec, RetentionPolicy, StorageType, nanos } from 'nats';
import type { ConsumerMessages, JsMsg, NatsConnection } from 'nats';
import type { Logger } from '../logging/logger';
import type { Metrics } from '../metrics/metrics';
import { keepInProgress } from '../messaging/in-progress';
import { mailLogEntry, stampMail } from './mail.port';
import type { MailMessage, Mailer, SentMail } from './mail.port';
import { isPermanentMailFailure } from './smtp.transport';
import type { MailTransport } from './smtp.transport';
import { stopConsuming } from '../messaging/consume-loop';
import { SpanKind, continueTrace, traceHeaders } from '../tracing/spans';

export interface QueuedMailerOptions {
  /** Attempts of one message before it is dropped (with an error log); a permanent refusal ends it at once. */
  maxAttempts?: number;
  /** How long a message handed to a process that then dies stays unseen by the others. */
  ackWaitMs?: number;
  /** Wait before the next attempt after `attempt` failed ones. */
  retryDelayMs?: (attempt: number) => number;
  /** Counts deliveries by outcome and reads the queue depth at each scrape. */
  metrics?: Pick<Metrics, 'mailDeliveries' | 'mailQueueDepth' | 'sample'>;
}

const keepForMs = 7 * 86_400_000;
const durable = 'mail-sender';
const codec = JSONCodec<SentMail>();
/** 2 s doubling up to 5 min: with the default 12 attempts, a mail server may be away about 23 minutes. */
const backoff = (attempt: number) => Math.min(300_000, 2_000 * 2 ** (attempt - 1));

/** JetStream work queue of one deployment's outgoing mail, e.g. `SESAME_MAIL_QUEUE`. */
export const mailQueueStreamName = (prefix: string) => `${prefix}_MAIL_QUEUE`.toUpperCase();

/**
 * Mail sent after the answer: `send` keeps the message in a JetStream work queue and answers at
 * once, so a slow or unreachable mail server never shows in a request's timing (the answer floors
 * against enumeration hold) and never fails it. A durable consumer shared by every process with a
 * mailer hands each message to the transport and acknowledges it once delivered; a failure is tried
 * again with backoff, a message whose process died is redelivered after the ack wait (at least once:
 * the message id goes out as its `Message-ID`), a permanent refusal or the last attempt drops it
 * with an error log.
 */
export class QueuedMailer implements Mailer {
  private readonly maxAttempts: number;
  private readonly ackWaitMs: number;
  private readonly retryDelayMs: (attempt: number) => number;
  private readonly metrics?: QueuedMailerOptions['metrics'];
  private ready?: Promise<void>;
  private stopped = false;
  private messages?: ConsumerMessages;
  private running?: Promise<void>;
  private stopping?: Promise<void>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly from: string,
    private readonly transport: MailTransport,
    private readonly logger: Logger,
    options: QueuedMailerOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 12;
    this.ackWaitMs = options.ackWaitMs ?? 60_000;
    this.retryDelayMs = options.retryDelayMs ?? backoff;
    this.metrics = options.metrics;
    this.metrics?.sample(this.metrics.mailQueueDepth, () => this.depth());
  }

  /** Messages in the queue not delivered yet: waiting, and handed to a process that has not acknowledged them. */
  async depth(): Promise<number> {
    await this.ensureQueue();
    const info = await (await this.nc.jetstreamManager()).consumers.info(mailQueueStreamName(this.prefix), durable);
    return info.num_pending + info.num_ack_pending;
  }

  async send(message: MailMessage): Promise<SentMail> {
    const mail = stampMail(message, this.from, 'smtp');
    await this.ensureQueue();
    const headers = traceHeaders();
    await this.nc.jetstream().publish(this.subject(), codec.encode(mail), { msgID: mail.id, ...(headers ? { headers } : {}) });
    this.logger.info({ mail: mailLogEntry(mail) }, 'mail queued');
    return mail;
  }

  /** Starts delivering the queue's messages, until `stop`. */
  start(): void {
    this.running ??= this.run();
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.stopped = true;
      await stopConsuming(this.nc.isClosed() ? undefined : this.messages, this.running);
      this.transport.close();
    })();
    return this.stopping;
  }

  private async run(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.ensureQueue();
        const consumer = await this.nc.jetstream().consumers.get(mailQueueStreamName(this.prefix), durable);
        // One at a time: a message waiting in this process's buffer would see its ack wait run out.
        this.messages = await consumer.consume({ max_messages: 1 });
        attempt = 0;
        for await (const message of this.messages) {
          await this.deliver(message);
          if (this.stopped) break;
        }
      } catch (error) {
        if (this.stopped || this.nc.isClosed()) break;
        if (attempt > 2) this.logger.warn({ err: error }, 'mail queue not ready; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 250 * 2 ** attempt)));
      }
    }
  }

  private async deliver(message: JsMsg): Promise<void> {
    const traceparent = message.headers?.get('traceparent');
    const carried = traceparent ? { traceparent } : undefined;
    await continueTrace(carried, 'mail deliver', { kind: SpanKind.CONSUMER, attributes: { 'messaging.system': 'nats' } }, () =>
      this.deliverNow(message),
    );
  }

  private async deliverNow(message: JsMsg): Promise<void> {
    const mail = codec.decode(message.data);
    const attempt = message.info.deliveryCount;
    const stopHeartbeat = keepInProgress(message, this.ackWaitMs);
    try {
      await this.transport.deliver(mail);
      message.ack();
      this.metrics?.mailDeliveries.inc({ outcome: 'delivered' });
    } catch (error) {
      const log = { err: error, mail: { id: mail.id, to: mail.to, subject: mail.subject }, attempt };
      if (isPermanentMailFailure(error) || attempt >= this.maxAttempts) {
        this.logger.error(log, 'mail dropped: the server refused it or every attempt failed');
        message.term();
        this.metrics?.mailDeliveries.inc({ outcome: 'dropped' });
      } else {
        this.logger.warn(log, 'mail not delivered; will retry');
        message.nak(this.retryDelayMs(attempt));
        this.metrics?.mailDeliveries.inc({ outcome: 'retried' });
      }
    } finally {
      stopHeartbeat();
    }
  }

  private subject = () => `${this.prefix}.mail-queue`;

  private ensureQueue(): Promise<void> {
    this.ready ??= this.createQueue().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async createQueue(): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    const name = mailQueueStreamName(this.prefix);
    try {
      await jsm.streams.info(name);
    } catch {
      await jsm.streams.add({
        name,
        subjects: [this.subject()],
        storage: StorageType.File,
        retention: RetentionPolicy.Workqueue,
        max_age: nanos(keepForMs),
      });
    }
    const ackWait = nanos(this.ackWaitMs);
    const existing = await jsm.consumers.info(name, durable).catch(() => null);
    if (!existing)
      await jsm.consumers.add(name, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        ack_wait: ackWait,
        max_deliver: -1,
      });
    else if (existing.config.ack_wait !== ackWait) await jsm.consumers.update(name, durable, { ack_wait: ackWait });
  }
}
