/**
 * `@sesame/platform/mail`: the mailers (the outbox, the SMTP queue; nodemailer is loaded at the
 * first message sent). The `Mailer` port is in the root entry.
 */
export * from './outbox.mailer';
export * from './smtp.transport';
export * from './queued.mailer';
export * from './mailer';
