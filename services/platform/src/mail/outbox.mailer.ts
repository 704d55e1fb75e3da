import type { NatsConnection } from 'nats';
import type { Logger } from '../logging/logger';
import { JetStreamOutbox } from '../outbox/jetstream-outbox';
import type { OutboxQuery } from '../outbox/jetstream-outbox';
import { mailLogEntry, stampMail } from './mail.port';
import type { MailMessage, Mailer, SentMail } from './mail.port';

export type { OutboxQuery } from '../outbox/jetstream-outbox';

/** JetStream stream of the outbox of one deployment, e.g. `SESAME_OUTBOX`. */
export const outboxStreamName = (prefix: string) => JetStreamOutbox.streamName(prefix, 'outbox');

/**
 * The local mail outbox: every message is logged and kept in a JetStream stream shared by the
 * deployment, so that any service can send and a developer can read them all in one place
 * (`GET /dev/outbox` on the gateway outside production).
 */
export class OutboxMailer implements Mailer {
  private readonly outbox: JetStreamOutbox<SentMail>;

  constructor(
    nc: NatsConnection,
    prefix: string,
    private readonly from: string,
    private readonly logger: Logger,
    keepForMs?: number,
  ) {
    this.outbox = new JetStreamOutbox(nc, prefix, 'outbox', keepForMs);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const sent = stampMail(message, this.from, 'outbox');
    await this.outbox.keep(sent);
    this.logger.info({ mail: mailLogEntry(sent) }, 'mail kept in the local outbox');
    return sent;
  }
}

/** Reads the local mail outbox, oldest first; an outbox nobody wrote to yet is empty. */
export function readOutbox(nc: NatsConnection, prefix: string, query: OutboxQuery = {}): Promise<SentMail[]> {
  return new JetStreamOutbox<SentMail>(nc, prefix, 'outbox').read(query);
}
