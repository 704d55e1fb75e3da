import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../logging/logger';
import type { MailMessage, Mailer, SentMail } from './mail.port';

/** Production mail: SMTP through nodemailer (`smtp://user:pass@host:587`, `smtps://...`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
    private readonly logger: Logger,
  ) {
    this.transport = createTransport(url);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const id = randomUUID();
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      messageId: `<${id}@sesame>`,
      headers: message.tags?.length ? { 'X-Sesame-Tags': message.tags.join(',') } : {},
    });
    this.logger.info({ mail: { id, to: message.to, subject: message.subject, tags: message.tags } }, 'mail sent over SMTP');
    return { ...message, id, from: this.from, sent_at: new Date().toISOString(), transport: 'smtp' };
  }

  close(): void {
    this.transport.close();
  }
}
