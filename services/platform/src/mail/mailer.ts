import type { NatsConnection } from 'nats';
import type { BaseConfig } from '../config/config';
import type { Logger } from '../logging/logger';
import type { Mailer } from './mail.port';
import { OutboxMailer } from './outbox.mailer';
import { SmtpMailer } from './smtp.mailer';

/** The mailer the configuration asks for: SMTP when `SESAME_MAIL_TRANSPORT=smtp`, the local outbox otherwise. */
export function createMailer(config: BaseConfig, nc: NatsConnection, logger: Logger): Mailer {
  if (config.SESAME_MAIL_TRANSPORT === 'smtp')
    return new SmtpMailer(config.SESAME_SMTP_URL as string, config.SESAME_MAIL_FROM, logger);
  return new OutboxMailer(nc, config.SESAME_PREFIX, config.SESAME_MAIL_FROM, logger);
}
