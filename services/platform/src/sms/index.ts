/** `@sesame/platform/sms`: the SMS senders (outbox, HTTP gateway). The `SmsSender` port is in the root entry. */
export * from './outbox.sms-sender';
export * from './http.sms-sender';
export * from './sms-sender';
