import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { directorySyncWebhookCodes } from './directory-sync.events';
import { isWebhookEventCode, webhookEventCodes } from './webhook-catalogue';

const guide = (language: 'en' | 'fr') =>
  readFileSync(join(__dirname, '..', '..', '..', 'docs', 'content', 'docs', language, 'webhooks.md'), 'utf8');
/** The codes a guide's event reference lists: the first cell of its table rows. */
const documentedCodes = (markdown: string) =>
  [...markdown.matchAll(/^\| `([a-z_]+(?:\.[a-z_]+)+)` +\|/gm)].map((match) => match[1]);

describe('webhook event catalogue', () => {
  it('publishes the codes other services declare for their events', () => {
    for (const code of Object.values(directorySyncWebhookCodes)) expect(isWebhookEventCode(code)).toBe(true);
  });

  it('holds dotted lowercase codes, each once', () => {
    for (const code of webhookEventCodes) expect(code).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
    expect(isWebhookEventCode('toString')).toBe(false);
  });

  it.each(['en', 'fr'] as const)('is the event reference of the webhooks guide (%s): every code once, no other', (language) => {
    expect(documentedCodes(guide(language)).sort()).toEqual([...webhookEventCodes].sort());
  });
});
