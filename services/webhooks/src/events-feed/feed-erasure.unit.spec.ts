import { webhookEventCodes } from '@sesame/contracts';
import type { ServiceName, WebhookEventCode } from '@sesame/contracts';
import { erasureEmailHash } from '@sesame/platform';
import type { RecordedEvent } from '@sesame/platform';
import { eventSources } from '../events/event-mapping';
import { productEvents, user } from '../events/product-events.spec-kit';
import { feedEntryOf } from './feed-entry';
import type { FeedEntry } from './feed-entry';
import { afterErasures, erasedSubjectOf, pseudonymised, pseudonymEmail, rewrittenBy } from './feed-erasure';

const ada = erasedSubjectOf('production', {
  user_id: user.id,
  pseudonym: 'erased-7f3c',
  email_hashes: [erasureEmailHash(user.id, user.email)],
});
/** Every personal value of the spec kit's person, as its events carry them. */
const personalValues = ['ada@acme.com', 'ada@old.com', 'Ada', 'Lovelace', '+33612345678', 'Lyon', '69002', '1 rue Ada', 'pro'];
const browser = { ip: '203.0.113.7', user_agent: 'Mozilla/5.0 (Ada)' };

/** The feed entry of the spec kit's event of `code`, caused by `actor`. */
function entryOf(code: WebhookEventCode, actor: RecordedEvent['metadata']['actor'] = { type: 'api_key', id: 'client-1' }) {
  const sample = productEvents[code];
  const event: RecordedEvent = {
    id: `e-${code}`,
    stream: sample.stream,
    revision: 0,
    type: sample.type,
    data: sample.data,
    metadata: { correlationId: 'c', actor, occurredAt: '2026-01-01T00:00:00.000Z', environment: sample.environment },
  };
  const source = eventSources.find((item) => item.source === sample.source) as {
    source: ServiceName;
    map: (typeof eventSources)[0]['map'];
  };
  const published = source.map(event);
  if (!published) throw new Error(`${code} is not published`);
  return feedEntryOf(source.source, 7, 0, event, published);
}

/** Every string of a JSON value (keys left out). */
const texts = (value: unknown): string[] => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
};
const leftovers = (entry: FeedEntry) =>
  texts(entry).filter((text) => personalValues.some((value) => text === value || (value.includes('@') && text.includes(value))));

describe('erasing a person from the events feed', () => {
  it.each(webhookEventCodes.filter((code) => code !== 'user.erased'))(
    'leaves none of the person’s values in a %s entry, and keeps its audit record',
    (code) => {
      const entry = entryOf(code, { type: 'user', id: user.id, ...browser });
      const after = pseudonymised(entry, ada);
      expect(leftovers(after)).toEqual([]);
      expect(after).toMatchObject({
        _id: entry._id,
        code,
        organization_id: entry.organization_id,
        occurred_at: entry.occurred_at,
      });
      expect(after.actor).toEqual({ type: 'user', id: user.id });
    },
  );

  it('pseudonymises the emails, empties the other personal fields and keeps the ids of a user.updated entry', () => {
    const after = pseudonymised(entryOf('user.updated'), ada);
    expect(after.data).toMatchObject({
      user: {
        id: user.id,
        email: 'erased-7f3c@erased.invalid',
        phone_number: null,
        address: { country: null, locality: null, postal_code: null, street_address: null },
        profile: { given_name: null, family_name: null },
        metadata: {},
      },
      changes: { email: 'erased-7f3c@erased.invalid' },
      previous_values: { email: 'erased-7f3c@erased.invalid' },
    });
  });

  it('finds the entries that name the person only by email (a failed password sign-in, a SCIM refusal) by the email’s hash', () => {
    expect(pseudonymised(entryOf('password.challenge.failed'), ada).data).toEqual({ email: pseudonymEmail(ada) });
    const refusal = pseudonymised(entryOf('directory_sync.user.provisioning.failure'), ada).data as { error: { detail: string } };
    expect(refusal.error.detail).toBe("The userName 'erased-7f3c@erased.invalid' is already taken in this directory");
  });

  it('keeps the client address of an API key (the integrator’s server, not the person)', () => {
    const entry = entryOf('user.updated', { type: 'api_key', id: 'client-1', ...browser });
    expect(pseudonymised(entry, ada).actor).toEqual({ type: 'api_key', id: 'client-1', ...browser });
  });

  it('leaves the entries of another person, or of the person’s id in the other environment, as they are', () => {
    const other = erasedSubjectOf('production', {
      user_id: '11111111-2222-4333-8444-555555555555',
      pseudonym: 'erased-other',
      email_hashes: [erasureEmailHash('11111111-2222-4333-8444-555555555555', 'bob@acme.com')],
    });
    const entries = webhookEventCodes.map((code) => entryOf(code, { type: 'user', id: user.id, ...browser }));
    expect(rewrittenBy(other, entries)).toEqual([]);
    expect(rewrittenBy({ ...ada, environment: 'sandbox' }, entries)).toEqual([]);
    expect(entries.map((entry) => pseudonymised(entry, other))).toEqual(entries);
  });

  it('changes nothing more when applied twice', () => {
    const once = pseudonymised(entryOf('sso.login.succeeded', { type: 'sso_connection', id: 'sso-1', ...browser }), ada);
    expect(pseudonymised(once, ada)).toEqual(once);
    expect(rewrittenBy(ada, [once])).toEqual([]);
  });

  describe('whatever the order the feed reads the sources in (a rebuild follows each stream on its own)', () => {
    const codes: WebhookEventCode[] = [
      'password.challenge.failed',
      'totp.enrollment.created',
      'sso.login.failed',
      'user.updated',
    ];

    it.each(codes)('writes the same %s entry when it comes before the erasure as after it', (code) => {
      const entry = entryOf(code, { type: 'user', id: user.id, ...browser });
      // Given the erasure was applied first, when the entry is written:
      const erasureFirst = afterErasures(entry, [ada]);
      // Given the entry was written first, when the erasure is applied:
      const [entryFirst] = rewrittenBy(ada, [afterErasures(entry, [])]);
      expect(entryFirst).toEqual(erasureFirst);
      expect(leftovers(erasureFirst)).toEqual([]);
    });
  });
});
