import { randomUUID } from 'node:crypto';

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
