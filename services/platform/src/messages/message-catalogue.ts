/**
 * Every message Sesame sends a person, by name: its channel (what parts its template files have)
 * and the placeholders its templates may use. The wording lives in template files, one folder per
 * language (`templates/<language>/<name>.subject.txt`, `<name>.txt`, `<name>.html`).
 */
export const messageCatalogue = {
  'admin-invitation': {
    channel: 'mail',
    placeholders: ['organization', 'environment', 'link', 'expires_at', 'link_ttl', 'session_idle', 'session_max'],
  },
  'password-reset': { channel: 'mail', placeholders: ['organization', 'email', 'link', 'expires_at', 'valid_for'] },
  'magic-link': { channel: 'mail', placeholders: ['organization', 'email', 'link', 'expires_at', 'valid_for'] },
  'totp-code': { channel: 'sms', placeholders: ['organization', 'code', 'valid_for'] },
} as const;

export type MessageName = keyof typeof messageCatalogue;
export type MessageChannel = (typeof messageCatalogue)[MessageName]['channel'];

/** The languages messages are written in; the first one is the fallback. */
export const messageLanguages = ['en', 'fr'] as const;
export type MessageLanguage = (typeof messageLanguages)[number];

/** The template files a message of each channel has. */
export const channelParts: Record<MessageChannel, readonly MessagePart[]> = {
  mail: ['subject', 'text', 'html'],
  sms: ['text'],
};
export type MessagePart = 'subject' | 'text' | 'html';
export const partFile: Record<MessagePart, (name: string) => string> = {
  subject: (name) => `${name}.subject.txt`,
  text: (name) => `${name}.txt`,
  html: (name) => `${name}.html`,
};
