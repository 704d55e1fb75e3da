import { directorySyncWebhookCodes } from './directory-sync.events';
import { isWebhookEventCode, webhookEventCodes } from './webhook-catalogue';

describe('webhook event catalogue', () => {
  it('publishes the codes other services declare for their events', () => {
    for (const code of Object.values(directorySyncWebhookCodes)) expect(isWebhookEventCode(code)).toBe(true);
  });

  it('holds dotted lowercase codes, each once', () => {
    for (const code of webhookEventCodes) expect(code).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
    expect(isWebhookEventCode('toString')).toBe(false);
  });
});
