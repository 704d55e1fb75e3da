/**
 * The SMS port (DESIGN.md section 4): one-time codes by text message. Production sends through
 * an HTTP SMS provider; the default is the local SMS outbox, where every message is logged and
 * kept for a developer (and the system tests) to read (`GET /dev/sms-outbox`). Never a silent no-op.
 */
export interface SmsMessage {
  /** E.164 phone number, e.g. `+33612345678`. */
  to: string;
  text: string;
  /** Free labels for filtering, e.g. the organization domain or the kind of message (`totp`). */
  tags?: string[];
}

export interface SentSms extends SmsMessage {
  id: string;
  from: string;
  sent_at: string;
  transport: 'outbox' | 'http';
  /** The provider's id of the message, when it gives one. */
  provider_id?: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<SentSms>;
}
