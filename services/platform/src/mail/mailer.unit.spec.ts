import type { NatsConnection } from 'nats';
import { baseConfigSchema } from '../config/config';
import { createLogger } from '../logging/logger';
import { createSmsSender } from '../sms/sms-sender';
import { createMailer } from './mailer';
import { OutboxMailer } from './outbox.mailer';

/** The outbox adapters open their stream on first use: a connection that is never called is enough here. */
const unusedConnection = {} as NatsConnection;

describe('choosing the mail and SMS adapters', () => {
  const warnings = (mode: 'development' | 'production') => {
    const logger = createLogger('test', 'silent');
    const warn = jest.spyOn(logger, 'warn');
    const config = baseConfigSchema.parse({ SESAME_MODE: mode });
    const mailer = createMailer(config, { nc: unusedConnection, logger, onShutdown: () => undefined });
    createSmsSender(config, unusedConnection, logger);
    return { mailer, warned: warn.mock.calls.map(([message]) => message) };
  };

  it('warns in production that the default outboxes send nothing', () => {
    const { mailer, warned } = warnings('production');
    expect(mailer).toBeInstanceOf(OutboxMailer);
    expect(warned).toEqual([
      'emails are only kept in the outbox, never sent: set SESAME_MAIL_TRANSPORT=smtp and SESAME_SMTP_URL',
      'text messages are only kept in the SMS outbox, never sent: set SESAME_SMS_TRANSPORT=http and SESAME_SMS_HTTP_URL',
    ]);
  });

  it('keeps quiet in development, where the outboxes are the point', () => {
    expect(warnings('development').warned).toEqual([]);
  });
});
