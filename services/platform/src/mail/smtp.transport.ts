import type { Transporter } from 'nodemailer';
import type { Logger } from '../logging/logger';
import type { SentMail } from './mail.port';

/** Where a queued message goes (DESIGN.md section 4): an SMTP server in production. */
export interface MailTransport {
  /** Hands the message over; rejects when the server refuses it or cannot be reached. */
  deliver(mail: SentMail): Promise<void>;
  close(): void;
}

/** An SMTP refusal that retrying will not change (RFC 5321 section 4.2.1: 5yz replies). */
export const isPermanentMailFailure = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown })?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * SMTP through nodemailer (`smtp://user:pass@host:587`, `smtps://...`), with timeouts short
 * enough that a stalled server gives its message back to the queue for a later attempt (the
 * URL's query may set others, e.g. `?socketTimeout=60000`).
 */
export class SmtpTransport implements MailTransport {
  /** nodemailer is loaded at the first message: processes that never send mail never load it. */
  private transport?: Promise<Transporter>;

  constructor(
    private readonly url: string,
    private readonly logger: Logger,
  ) {}

  async deliver(mail: SentMail): Promise<void> {
    const transport = await (this.transport ??= this.open());
    await transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html ? { html: mail.html } : {}),
      messageId: `<${mail.id}@sesame>`,
      headers: mail.tags?.length ? { 'X-Sesame-Tags': mail.tags.join(',') } : {},
    });
    this.logger.info({ mail: { id: mail.id, to: mail.to, subject: mail.subject, tags: mail.tags } }, 'mail sent over SMTP');
  }

  close(): void {
    void this.transport?.then((transport) => transport.close()).catch(() => undefined);
  }

  private async open(): Promise<Transporter> {
    const { createTransport } = await import('nodemailer');
    return createTransport({ url: this.url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  }
}
