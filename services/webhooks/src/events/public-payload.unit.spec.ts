import { webhookEventCatalogue, webhookEventCodes, webhookPayloadSchemas } from '@sesame/contracts';
import type { WebhookEventCode } from '@sesame/contracts';
import type { RecordedEvent } from '@sesame/platform';
import { eventSources } from './event-mapping';
import { payloadMappers } from './payload-mappers';
import { productEvents } from './product-events.spec-kit';
import type { ProductEventCase } from './product-events.spec-kit';
import { PayloadMismatch, publicPayload } from './public-payload';

const occurredAt = '2026-01-01T00:00:00.000Z';
const recorded = ({ stream, type, data }: Pick<ProductEventCase, 'stream' | 'type' | 'data'>): RecordedEvent => ({
  id: 'e1',
  stream,
  revision: 0,
  type,
  data,
  metadata: { correlationId: 'c', actor: 'client-1', occurredAt, environment: 'sandbox' },
});
const map = (item: ProductEventCase, data = item.data) =>
  eventSources.find(({ source }) => source === item.source)?.map(recorded({ ...item, data })) ?? null;

/** Free-form records a payload copies whole (a user's metadata, the values that changed): not the mapping's to filter. */
const freeForm = new Set(['changes', 'previous_values', 'new_values', 'metadata', 'data', 'onboarding']);
/** The data with an unknown internal field added to it and to every object nested in it (free-form records aside). */
function withInternalField(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withInternalField(item));
  if (typeof value !== 'object' || value === null || (key && freeForm.has(key))) return value;
  const nested = Object.entries(value).map(([name, child]) => [name, withInternalField(child, name)]);
  return { ...Object.fromEntries(nested), internal_field: 'leaked-value' };
}

const cases = Object.entries(productEvents) as [WebhookEventCode, ProductEventCase][];

describe('the public payload of each webhook event code', () => {
  it('has a schema, a mapper and a case for every code of the catalogue, and for no other code', () => {
    const codes = [...webhookEventCodes].sort();
    expect(Object.keys(webhookPayloadSchemas).sort()).toEqual(codes);
    expect(Object.keys(payloadMappers).sort()).toEqual(codes);
    expect(Object.keys(productEvents).sort()).toEqual(codes);
  });

  it.each(cases)('publishes %s with exactly its public fields, in its organization and environment', (code, item) => {
    expect(map(item)).toEqual({
      id: 'e1',
      code,
      data: item.payload,
      domain: item.domain,
      environment: item.environment,
      issued_at: occurredAt,
      client_id: 'client-1',
      description: webhookEventCatalogue[code],
    });
    expect(webhookPayloadSchemas[code].parse(item.payload)).toEqual(item.payload);
  });

  it.each(cases)('does not publish a field an internal event of %s gains, at any depth', (_code, item) => {
    const published = map(item, withInternalField(item.data) as Record<string, unknown>);
    expect(published?.data).toEqual(item.payload);
    expect(JSON.stringify(published)).not.toContain('leaked-value');
  });

  it('never publishes a secret, a hash or a key that a product event carries', () => {
    const published = JSON.stringify(cases.map(([, item]) => map(item)));
    const secrets = [
      '$argon2id',
      '"pepper_kid"',
      'n0nce',
      'codehash',
      'invitationhash',
      'recoveryhash',
      'tokenhash',
      'v1.k.iv.tag',
    ];
    expect(secrets.filter((secret) => published.includes(secret))).toEqual([]);
    expect(published).not.toContain('never-published');
  });

  // Regressions: the deny-list published every field it did not name, internal ones included.
  it("publishes neither an organization's provisioning services nor a magic link's PKCE challenge", () => {
    expect(map(productEvents['organization.created'])?.data).not.toHaveProperty('provisioners');
    expect(map(productEvents['magic_link.challenge.created'])?.data).not.toHaveProperty('code_challenge');
  });

  it('refuses a payload its schema does not accept, naming the paths but never the values', () => {
    const { user: _user, ...withoutUser } = productEvents['user.created'].data;
    const refusal = (() => {
      try {
        publicPayload('user.created', { ...withoutUser, source: 'fax' });
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(PayloadMismatch);
    expect((refusal as PayloadMismatch).issues).toEqual(['user: invalid_type', 'source: invalid_value']);
    expect((refusal as Error).message).not.toContain('fax');
  });
});
