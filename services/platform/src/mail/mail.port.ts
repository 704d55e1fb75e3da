import { randomUUID } from 'node:crypto';
import { redactText } from '../logging/redaction';

/**
 * The mail port (DESIGN.md section 4): invitations, magic links, password resets. Production
 * sends through SMTP; the default is the local outbox, where every message is logged and kept
 * for a developer (and the system tests) to read. Never a silent no-op.
 */
export interface MailLink {
  /** What the link is for, e.g. `admin-invitation`, `magic-link`, `password-reset`. */
  rel: string;
  url: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The actionable links of the message, so that tools and tests need not parse the body. */
  links?: MailLink[];
  /** Free labels for filtering, e.g. the organization domain or the kind of message. */
  tags?: string[];
}

export interface SentMail extends MailMessage {
  id: string;
  from: string;
  sent_at: string;
  transport: 'outbox' | 'smtp';
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

/** A message as it leaves: a fresh id, the sender, the time and the transport that takes it. */
export const stampMail = (message: MailMessage, from: string, transport: SentMail['transport']): SentMail => ({
  ...message,
  id: randomUUID(),
  from,
  sent_at: new Date().toISOString(),
  transport,
});

/** The longest part of a body a log line shows. */
const loggedBodyLength = 300;

/**
 * What a log line may say about a message: its recipient, subject and template (its first tag:
 * `magic-link`, `password-reset`, `admin-invitation`...), and its text with every link's secrets
 * redacted, cut short. Never the body in full: it carries the links that sign a user in.
 */
export function mailLogEntry(mail: SentMail) {
  let body = mail.text;
  for (const link of mail.links ?? []) body = body.split(link.url).join(redactText(link.url));
  body = redactText(body);
  return {
    id: mail.id,
    to: mail.to,
    subject: mail.subject,
    template: mail.tags?.[0] ?? null,
    tags: mail.tags,
    body: body.length > loggedBodyLength ? `${body.slice(0, loggedBodyLength)}…` : body,
  };
}
