import { randomUUID } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { Logger } from '../logging/logger';
import { JetStreamOutbox } from '../outbox/jetstream-outbox';
import type { OutboxQuery } from '../outbox/jetstream-outbox';
import type { SentSms, SmsMessage, SmsSender } from './sms.port';

/** JetStream stream of the SMS outbox of one deployment, e.g. `SESAME_SMS_OUTBOX`. */
export const smsOutboxStreamName = (prefix: string) => JetStreamOutbox.streamName(prefix, 'sms_outbox');

/**
 * The local SMS outbox: every text message is logged and kept on JetStream, readable by a
 * developer at `GET /dev/sms-outbox` outside production.
 */
export class OutboxSmsSender implements SmsSender {
  private readonly outbox: JetStreamOutbox<SentSms>;

  constructor(
    nc: NatsConnection,
    prefix: string,
    private readonly from: string,
    private readonly logger: Logger,
    keepForMs?: number,
  ) {
    this.outbox = new JetStreamOutbox(nc, prefix, 'sms_outbox', keepForMs);
  }

  async send(message: SmsMessage): Promise<SentSms> {
    const sent: SentSms = {
      ...message,
      id: randomUUID(),
      from: this.from,
      sent_at: new Date().toISOString(),
      transport: 'outbox',
    };
    await this.outbox.keep(sent);
    this.logger.info({ sms: { id: sent.id, to: sent.to, tags: sent.tags } }, 'SMS kept in the local outbox');
    return sent;
  }
}

/** Reads the local SMS outbox, oldest first; an outbox nobody wrote to yet is empty. */
export function readSmsOutbox(nc: NatsConnection, prefix: string, query: OutboxQuery = {}): Promise<SentSms[]> {
  return new JetStreamOutbox<SentSms>(nc, prefix, 'sms_outbox').read(query);
}
