import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { eventually, notFound, unauthorized } from '../support/identity-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

interface FeedEvent {
  id: string;
  code: string;
  data: unknown;
  organization_id: string | null;
  occurred_at: string;
  actor: { type: string; id: string; ip?: string; user_agent?: string } | null;
}

const long = 60_000;

/** Every string of a JSON value. */
const texts = (value: unknown): string[] => {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(texts);
  return [];
};

/** A privacy erasure of a user's events (all processes, real NATS): the feed, its export and replays answer a pseudonym. */
describe('Events API: POST /api/v2/org/{org_domain}/users/{id}/erasure', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let acme: { id: string; domain: string };
  let globex: { id: string; domain: string };
  let ada: string;
  let bob: string;
  let eve: string;
  const adaEmail = 'ada@erasure-acme.com';
  const adaValues = [adaEmail, 'Ada', 'Lovelace', '+33612345678'];
  const leftovers = (value: unknown) =>
    texts(value).filter((text) => text.toLowerCase().includes(adaEmail) || adaValues.includes(text));

  const organization = async (name: string, emailDomain: string) => {
    const { status, body } = await system.request('POST', '/api/v2/organizations', {
      body: { name, allowed_email_domains: [emailDomain] },
    });
    if (status !== 201) throw new Error(`organization ${name}: ${status} ${JSON.stringify(body)}`);
    return { id: body.id as string, domain: body.domain as string };
  };
  /** A user with a password, a failed and a successful password sign-in. */
  const personWithSignIns = async (domain: string, email: string) => {
    const plain_text = 'correct horse battery staple 42';
    const set = await system.request('POST', '/api/v2/password', { body: { org_domain: domain, user_email: email, plain_text } });
    if (set.status !== 201) throw new Error(`password ${email}: ${set.status} ${JSON.stringify(set.body)}`);
    for (const attempt of ['not the right passphrase 0', plain_text])
      await system.request('POST', '/api/v2/password-challenge', {
        body: { org_domain: domain, user_email: email, plain_text: attempt },
      });
    return set.body.user_id as string;
  };
  const all = async (query: string, key?: ApiKey) => {
    const events: FeedEvent[] = [];
    let after: string | undefined;
    for (;;) {
      const { status, body } = await system.request('GET', `/api/v2/events?${query}&limit=100${after ? `&after=${after}` : ''}`, {
        key,
      });
      if (status !== 200) throw new Error(`events ${query}: ${status} ${JSON.stringify(body)}`);
      events.push(...body.data);
      after = body.list_metadata.after;
      if (!body.list_metadata.has_more) return events;
    }
  };
  const erase = (id: string, domain = acme.domain, key?: ApiKey) =>
    system.request('POST', `/api/v2/org/${domain}/users/${id}/erasure`, { key });
  const mentions = (event: FeedEvent, id: string) => JSON.stringify(event).includes(id);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    system = await System.start({ processEnv: { webhooks: { SESAME_WEBHOOK_POLL_MS: '100' } } });
    acme = await organization('Erasure Acme', 'erasure-acme.com');
    globex = await organization('Erasure Globex', 'erasure-globex.com');
    ada = await personWithSignIns(acme.domain, adaEmail);
    const updated = await system.request('PUT', `/api/v2/org/${acme.domain}/users/${ada}`, {
      body: { email: adaEmail, phone_number: '+33612345678', profile: { given_name: 'Ada', family_name: 'Lovelace' } },
    });
    if (updated.status !== 200) throw new Error(`update: ${updated.status} ${JSON.stringify(updated.body)}`);
    bob = await personWithSignIns(acme.domain, 'bob@erasure-acme.com');
    eve = await personWithSignIns(globex.domain, 'eve@erasure-globex.com');
    // Ada's user.created, user.updated, password.created and two sign-ins; Bob's four.
    await eventually(async () => (await all(`organization_id=${acme.id}`)).length >= 10, long);
  }, 2 * long);
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  it("refuses the other environment's key, another organization's user, an unknown id and a key without users:write, writing nothing", async () => {
    const before = await all(`organization_id=${acme.id}`);
    expect(await erase(ada, acme.domain, system.createApiKey('production'))).toMatchObject({ status: 404, body: notFound });
    expect(await erase(eve)).toMatchObject({ status: 404, body: notFound });
    expect(await erase('00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: notFound });
    expect(await erase(ada, acme.domain, system.createApiKey('sandbox', ['users:read']))).toMatchObject({
      status: 401,
      body: unauthorized,
    });
    expect(await erase('not-a-uuid')).toMatchObject({ status: 422, body: { errors: { id: ['is not a valid uuid'] } } });
    expect((await system.request('GET', `/api/v2/org/${globex.domain}/users/${eve}`)).status).toBe(200);
    expect((await system.request('GET', `/api/v2/org/${acme.domain}/users/${ada}`)).status).toBe(200);
    expect(await all(`organization_id=${acme.id}`)).toEqual(before);
  });

  it(
    "pseudonymises every event of the person in the list, the export and replays, and keeps their audit record and other people's events",
    async () => {
      const before = await all(`organization_id=${acme.id}`);
      const adas = before.filter((event) => mentions(event, ada) || leftovers(event).length > 0);
      expect(adas.map((event) => event.code).sort()).toEqual(
        ['password.challenge.failed', 'password.challenge.succeeded', 'password.created', 'user.created', 'user.updated'].sort(),
      );
      const others = before.filter((event) => !adas.includes(event));

      const erased = await erase(ada);
      expect(erased).toEqual({
        status: 200,
        body: { user_id: ada, pseudonym: expect.stringMatching(/^erased-[0-9a-f-]{36}$/), erased_at: expect.any(String) },
        headers: expect.anything(),
      });
      const { pseudonym } = erased.body as { pseudonym: string };

      await eventually(async () => {
        const now = await all(`organization_id=${acme.id}`);
        return now.some((event) => event.code === 'user.erased') && leftovers(now).length === 0;
      }, long);
      const after = await all(`organization_id=${acme.id}`);
      expect(leftovers(after)).toEqual([]);
      // The audit record stays: the same events, codes, ids, organization and times; the deletion and the erasure follow.
      const audit = (event: FeedEvent) => [event.id, event.code, event.organization_id, event.occurred_at];
      expect(after.slice(0, before.length).map(audit)).toEqual(before.map(audit));
      expect(after.slice(before.length).map((event) => event.code)).toEqual(['user.deleted', 'user.erased']);
      expect(after.at(-1)?.data).toEqual({ organization_domain: acme.domain, organization_id: acme.id, user_id: ada, pseudonym });
      expect(after.filter((event) => others.some((other) => other.id === event.id))).toEqual(others);
      expect(after.find((event) => event.code === 'password.challenge.failed' && !others.includes(event))?.data).toEqual({
        email: `${pseudonym}@erased.invalid`,
      });
      expect(after.find((event) => event.code === 'user.updated')?.data).toMatchObject({
        user: {
          id: ada,
          email: `${pseudonym}@erased.invalid`,
          phone_number: null,
          profile: { given_name: null, family_name: null },
        },
      });

      const exported = await fetch(
        `${system.baseUrl}/api/v2/events/export?organization_id=${acme.id}&range_start=${new Date(Date.now() - 3_600_000).toISOString()}&range_end=${new Date(Date.now() + 3_600_000).toISOString()}`,
        {
          headers: { authorization: `Bearer ${await system.token()}` },
        },
      );
      const lines = (await exported.text()).split('\n').filter((line) => line !== '');
      expect(lines.map((line) => JSON.parse(line))).toEqual(after);
      expect(leftovers(lines.join('\n'))).toEqual([]);

      const webhook = await system.request('POST', '/api/v2/webhooks', {
        body: {
          name: 'Erasure replay',
          event_codes: ['user.created', 'user.updated', 'password.challenge.failed', 'password.challenge.succeeded'],
          target_url: `${receiver.url}/erasure`,
          organization_domain: acme.domain,
        },
      });
      const replayed = await system.request('POST', `/api/v2/webhooks/${webhook.body.id}/replay?limit=100`);
      expect(replayed.status).toBe(200);
      expect(replayed.body.data.length).toBeGreaterThanOrEqual(5);
      expect(leftovers(replayed.body.data)).toEqual([]);
      await eventually(async () => receiver.to('/erasure').length === replayed.body.data.length, long);
      expect(leftovers(receiver.to('/erasure').map((delivery) => String(delivery.body)))).toEqual([]);
    },
    3 * long,
  );

  it('answers the first erasure again when erased twice, and the user is gone', async () => {
    const first = (await all(`organization_id=${acme.id}&events=user.erased`)).map((event) => event.data);
    expect(first).toHaveLength(1);
    const again = await erase(ada);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      user_id: ada,
      pseudonym: (first[0] as { pseudonym: string }).pseudonym,
      erased_at: expect.any(String),
    });
    expect(await system.request('GET', `/api/v2/org/${acme.domain}/users/${ada}`)).toMatchObject({ status: 404, body: notFound });
    expect((await system.request('GET', `/api/v2/org/${acme.domain}/users/${bob}`)).status).toBe(200);
    expect(await all(`organization_id=${acme.id}&events=user.erased,user.deleted`)).toHaveLength(2);
  });

  it(
    'answers pseudonymised events from a restarted webhooks service (the feed rebuilt from the streams, in whatever order)',
    async () => {
      const before = await all(`organization_id=${acme.id}`);
      await system.restart(['webhooks']);
      await eventually(async () => (await all(`organization_id=${acme.id}`).catch(() => [])).length === before.length, long);
      const after = await all(`organization_id=${acme.id}`);
      expect(after).toEqual(before);
      expect(leftovers(after)).toEqual([]);
    },
    2 * long,
  );
});
