import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { Agent } from 'undici';
import { outboundAgent } from '../http/outbound-agent';
import type { Logger } from '../logging/logger';
import type { SentSms, SmsMessage, SmsSender } from './sms.port';

export interface HttpSmsOptions {
  /** The provider's send endpoint. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token?: string;
  from: string;
  timeoutMs: number;
}

export class SmsDeliveryError extends Error {
  constructor(status: number, detail: string) {
    super(`SMS provider answered ${status}: ${detail.slice(0, 200)}`);
    this.name = 'SmsDeliveryError';
  }
}

/**
 * An HTTP SMS provider: `POST <url>` with the JSON body `{ from, to, text }` (the shape of the
 * common gateways; put a small adapter service in front of a provider with another shape). A
 * 2xx answer is a success; its JSON `id` (or `message_id`, `sid`) is kept as `provider_id`. Through
 * HTTPS_PROXY unless NO_PROXY names the provider.
 */
export class HttpSmsSender implements SmsSender {
  private readonly dispatcher: Agent;

  constructor(
    private readonly options: HttpSmsOptions,
    private readonly logger: Logger,
  ) {
    this.dispatcher = outboundAgent({ connectTimeoutMs: options.timeoutMs, keepAliveTimeout: 10_000 });
  }

  async send(message: SmsMessage): Promise<SentSms> {
    const id = randomUUID();
    const answer = await request(this.options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': id,
        ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
      },
      body: JSON.stringify({ from: this.options.from, to: message.to, text: message.text }),
      dispatcher: this.dispatcher,
      headersTimeout: this.options.timeoutMs,
      bodyTimeout: this.options.timeoutMs,
    });
    const body = await answer.body.text();
    if (answer.statusCode < 200 || answer.statusCode >= 300) throw new SmsDeliveryError(answer.statusCode, body);
    const providerId = providerIdOf(body);
    this.logger.info({ sms: { id, to: message.to, provider_id: providerId, tags: message.tags } }, 'SMS sent');
    return {
      ...message,
      id,
      from: this.options.from,
      sent_at: new Date().toISOString(),
      transport: 'http',
      ...(providerId ? { provider_id: providerId } : {}),
    };
  }

  /** Closes the connections kept alive to the provider. */
  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

function providerIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    const id = parsed.id ?? parsed.message_id ?? parsed.sid;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}
