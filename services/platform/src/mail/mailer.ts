import type { BaseConfig } from '../config/config';
import { outboxRetentionMs } from '../outbox/jetstream-outbox';
import type { ServiceRuntime } from '../runtime/service-runtime';
import type { Mailer } from './mail.port';
import { OutboxMailer } from './outbox.mailer';
import { QueuedMailer } from './queued.mailer';
import { SmtpTransport } from './smtp.transport';

/**
 * The mailer the configuration asks for: SMTP when `SESAME_MAIL_TRANSPORT=smtp`, through the mail
 * queue this process helps deliver until it stops; the local outbox otherwise.
 */
export function createMailer(
  config: BaseConfig,
  runtime: Pick<ServiceRuntime, 'nc' | 'logger' | 'onShutdown'> & { metrics?: ServiceRuntime['metrics'] },
): Mailer {
  const { nc, logger } = runtime;
  if (config.SESAME_MAIL_TRANSPORT !== 'smtp') {
    if (config.SESAME_MODE === 'production')
      logger.warn('emails are only kept in the outbox, never sent: set SESAME_MAIL_TRANSPORT=smtp and SESAME_SMTP_URL');
    return new OutboxMailer(nc, config.SESAME_PREFIX, config.SESAME_MAIL_FROM, logger, outboxRetentionMs(config.SESAME_MODE));
  }
  const transport = new SmtpTransport(config.SESAME_SMTP_URL as string, logger);
  const mailer = new QueuedMailer(nc, config.SESAME_PREFIX, config.SESAME_MAIL_FROM, transport, logger, {
    ...(runtime.metrics ? { metrics: runtime.metrics } : {}),
  });
  mailer.start();
  runtime.onShutdown(() => mailer.stop());
  return mailer;
}
