import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { webhookEventCodes } from '../events/webhook-catalogue';
import type { WebhookEventCode } from '../events/webhook-catalogue';
import { eventSchema, publishedEventSchemas } from './webhook-envelope';
import { webhookComponentName, webhookPayloadSchemas } from './webhook-payloads';

const guide = (language: 'en' | 'fr') =>
  readFileSync(resolve(__dirname, `../../../docs/content/docs/${language}/webhooks.md`), 'utf8');

/** The top-level fields a guide's row names for each code: the backquoted names of its `data` cell, outside parentheses. */
function documentedFields(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const [, code, data] of markdown.matchAll(/^\| `([a-z_.]+)` +\|[^|\n]*\|([^|\n]*)\|$/gm)) {
    const outside = data!.replace(/\([^()]*\)/g, '');
    rows.set(
      code!,
      [...outside.matchAll(/`([a-z_]+)`/g)].map(([, name]) => name!),
    );
  }
  return rows;
}

const envelope = {
  __type__: 'Event',
  __domain__: 'acme',
  __environment__: 'production',
  id: 'e1',
  issued_at: '2026-01-01T00:00:00.000Z',
  webhook_id: 'webhook_1',
  client_id: null,
};

describe('webhook payload schemas', () => {
  it('has one for each code of the catalogue, and no other', () => {
    expect(Object.keys(webhookPayloadSchemas).sort()).toEqual([...webhookEventCodes].sort());
    expect(Object.keys(publishedEventSchemas).sort()).toEqual([...webhookEventCodes].sort());
  });

  it('names the components of a code after it', () => {
    expect(webhookComponentName('directory_sync.user.provisioning.success')).toBe('DirectorySyncUserProvisioningSuccess');
    expect(webhookPayloadSchemas['user.created'].meta()?.id).toBe('UserCreatedEventData');
  });

  it('types the data of an event by its code, and takes a test event of any code', () => {
    const deleted = {
      ...envelope,
      code: 'organization.deleted',
      description: 'An organization was deleted',
      data: { domain: 'acme' },
    };
    expect(eventSchema.parse(deleted)).toEqual(deleted);
    expect(eventSchema.safeParse({ ...deleted, code: 'user.deleted' }).success).toBe(false);
    expect(eventSchema.safeParse({ ...deleted, data: {} }).success).toBe(false);
    const test = { ...envelope, code: 'user.created', description: 'Test event', data: { test: true } };
    expect(eventSchema.parse(test)).toEqual(test);
  });
});

describe.each(['en', 'fr'] as const)('the webhooks guide (%s)', (language) => {
  const rows = documentedFields(guide(language));

  it.each(webhookEventCodes)('lists exactly the fields of the data of %s', (code: WebhookEventCode) => {
    expect(rows.get(code)?.sort()).toEqual(Object.keys(webhookPayloadSchemas[code].shape).sort());
  });

  it('lists no code outside the catalogue', () => {
    expect([...rows.keys()].filter((code) => !(webhookEventCodes as string[]).includes(code))).toEqual([]);
  });
});
