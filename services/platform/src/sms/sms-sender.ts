import type { NatsConnection } from 'nats';
import type { BaseConfig } from '../config/config';
import { outboxRetentionMs } from '../outbox/jetstream-outbox';
import type { Logger } from '../logging/logger';
import type { Metrics } from '../metrics/metrics';
import { HttpSmsSender } from './http.sms-sender';
import { OutboxSmsSender } from './outbox.sms-sender';
import type { SentSms, SmsMessage, SmsSender } from './sms.port';

/** The SMS sender the configuration asks for: the HTTP provider when `SESAME_SMS_TRANSPORT=http`, the local outbox otherwise. */
export function createSmsSender(
  config: BaseConfig,
  nc: NatsConnection,
  logger: Logger,
  metrics?: Pick<Metrics, 'smsDeliveries'>,
): SmsSender {
  if (config.SESAME_SMS_TRANSPORT === 'http') {
    const sender = new HttpSmsSender(
      {
        url: config.SESAME_SMS_HTTP_URL as string,
        ...(config.SESAME_SMS_HTTP_TOKEN ? { token: config.SESAME_SMS_HTTP_TOKEN } : {}),
        from: config.SESAME_SMS_FROM,
        timeoutMs: config.SESAME_RPC_TIMEOUT_MS,
      },
      logger,
    );
    return metrics ? new CountedSmsSender(sender, metrics) : sender;
  }
  if (config.SESAME_MODE === 'production')
    logger.warn(
      'text messages are only kept in the SMS outbox, never sent: set SESAME_SMS_TRANSPORT=http and SESAME_SMS_HTTP_URL',
    );
  return new OutboxSmsSender(nc, config.SESAME_PREFIX, config.SESAME_SMS_FROM, logger, outboxRetentionMs(config.SESAME_MODE));
}

/** Counts each message handed to the provider by outcome (`sesame_sms_deliveries_total`). */
export class CountedSmsSender implements SmsSender {
  constructor(
    private readonly sender: SmsSender,
    private readonly metrics: Pick<Metrics, 'smsDeliveries'>,
  ) {}

  async send(message: SmsMessage): Promise<SentSms> {
    try {
      const sent = await this.sender.send(message);
      this.metrics.smsDeliveries.inc({ outcome: 'delivered' });
      return sent;
    } catch (error) {
      this.metrics.smsDeliveries.inc({ outcome: 'failed' });
      throw error;
    }
  }
}
