import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { eventually, notFound, unauthorized } from '../support/identity-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

interface FeedEvent {
  id: string;
  code: string;
  data: any;
  organization_id: string | null;
  organization_domain: string | null;
  environment: string;
  actor: { type: string; id: string; ip?: string; user_agent?: string } | null;
  occurred_at: string;
  description: string;
}
interface FeedPage {
  data: FeedEvent[];
  list_metadata: { after: string; has_more: boolean };
}

const long = 60_000;

/** The events feed over every service's public events (all processes, real NATS). */
describe('Events API: GET /api/v2/events', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let production: ApiKey;
  let acme: { id: string; domain: string };
  let globex: { id: string; domain: string };

  const organization = async (name: string, emailDomain: string, key?: ApiKey) => {
    const { status, body } = await system.request('POST', '/api/v2/organizations', {
      key,
      body: { name, allowed_email_domains: [emailDomain] },
    });
    if (status !== 201) throw new Error(`organization ${name}: ${status} ${JSON.stringify(body)}`);
    return { id: body.id as string, domain: body.domain as string };
  };
  const createUser = async (domain: string, email: string, key?: ApiKey) => {
    const { status, body } = await system.request('POST', `/api/v2/org/${domain}/users`, { key, body: { email } });
    if (status !== 201) throw new Error(`user ${email}: ${status} ${JSON.stringify(body)}`);
    return body as { id: string; email: string };
  };
  const page = async (query: string, key?: ApiKey): Promise<FeedPage> => {
    const { status, body } = await system.request('GET', `/api/v2/events?${query}`, { key });
    if (status !== 200) throw new Error(`events ${query}: ${status} ${JSON.stringify(body)}`);
    return body as FeedPage;
  };
  /** Every event the query selects now, page after page from the start. */
  const all = async (query: string, key?: ApiKey) => {
    const events: FeedEvent[] = [];
    let after: string | undefined;
    for (;;) {
      const next = await page(`${query}&limit=100${after ? `&after=${after}` : ''}`, key);
      events.push(...next.data);
      after = next.list_metadata.after;
      if (!next.list_metadata.has_more) return events;
    }
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    system = await System.start({ processEnv: { webhooks: { SESAME_WEBHOOK_POLL_MS: '100' } } });
    production = system.createApiKey('production');
    acme = await organization('Feed Acme', 'feed-acme.com');
    globex = await organization('Feed Globex', 'feed-globex.com');
  }, long);
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  it(
    'walks every event exactly once and in order while users are being created',
    async () => {
      const emails = Array.from({ length: 24 }, (_, index) => `walker-${index}@feed-acme.com`);
      let writing = true;
      const writer = (async () => {
        try {
          for (const email of emails) await createUser(acme.domain, email);
        } finally {
          writing = false;
        }
      })();
      const seen: FeedEvent[] = [];
      let after: string | undefined;
      const query = `organization_id=${acme.id}&events=user.created&limit=5`;
      const started = Date.now();
      // Pages are read while the writer runs, then until every created user has been seen.
      while (writing || seen.length < emails.length) {
        if (Date.now() - started > long) throw new Error(`walked ${seen.length} of ${emails.length}`);
        const next = await page(`${query}${after ? `&after=${after}` : ''}`);
        expect(next.data.length).toBeLessThanOrEqual(5);
        seen.push(...next.data);
        after = next.list_metadata.after;
        if (next.data.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await writer;
      expect(new Set(seen.map((event) => event.id)).size).toBe(seen.length);
      expect(seen.map((event) => event.data.user.email)).toEqual(emails);
      expect(seen.map((event) => event.occurred_at)).toEqual([...seen.map((event) => event.occurred_at)].sort());
      // Nothing more after the last page, and the cursor holds its place.
      expect(await page(`${query}&after=${after}`)).toEqual({ data: [], list_metadata: { after, has_more: false } });
    },
    2 * long,
  );

  it(
    'answers the public payload, its organization, who caused it and when',
    async () => {
      const ada = await createUser(globex.domain, 'ada@feed-globex.com');
      await eventually(async () => (await page(`organization_id=${globex.id}&events=user.created`)).data.length === 1, long);
      const { data } = await page(`organization_id=${globex.id}&events=user.created`);
      expect(data).toEqual([
        {
          id: expect.any(String),
          code: 'user.created',
          data: expect.objectContaining({ user: expect.objectContaining({ id: ada.id, email: 'ada@feed-globex.com' }) }),
          organization_id: globex.id,
          organization_domain: globex.domain,
          environment: 'sandbox',
          // Who, and from where: the integrator's backend calling the gateway (fetch's user agent).
          actor: { type: 'api_key', id: system.apiKey.clientId, ip: '127.0.0.1', user_agent: 'node' },
          occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          description: 'A user was created (API, SSO, SCIM, magic link or password)',
        },
      ]);
    },
    long,
  );

  it(
    'filters by organization, codes (with wildcards), actor and time range',
    async () => {
      const before = new Date().toISOString();
      const bob = await createUser(globex.domain, 'bob@feed-globex.com');
      const updated = await system.request('PUT', `/api/v2/org/${globex.domain}/users/${bob.id}`, {
        body: { email: 'bob@feed-globex.com', metadata: { plan: 'pro' } },
      });
      expect(updated.status).toBe(200);
      await eventually(async () => (await all(`organization_id=${globex.id}&events=user.updated`)).length === 1, long);
      const after = new Date().toISOString();

      const ofGlobex = await all(`organization_id=${globex.id}`);
      expect(ofGlobex.length).toBeGreaterThanOrEqual(4); // organization.created, two user.created, user.updated
      expect(ofGlobex.every((event) => event.organization_id === globex.id)).toBe(true);

      const userCodes = await all(`organization_id=${globex.id}&events=user.*`);
      expect(userCodes.map((event) => event.code)).toEqual(['user.created', 'user.created', 'user.updated']);
      const listed = await all(`organization_id=${globex.id}&events=organization.created,user.updated`);
      expect(listed.map((event) => event.code)).toEqual(['organization.created', 'user.updated']);
      const asArray = await all(`organization_id=${globex.id}&events[]=organization.created&events[]=user.updated`);
      expect(asArray.map((event) => event.id)).toEqual(listed.map((event) => event.id));

      const byKey = await all(`organization_id=${globex.id}&actor_type=api_key&actor_id=${system.apiKey.clientId}`);
      expect(byKey.map((event) => event.id)).toEqual(ofGlobex.map((event) => event.id));
      expect(await all(`organization_id=${globex.id}&actor_type=api_key&actor_id=another-client`)).toEqual([]);
      expect(await all(`organization_id=${globex.id}&actor_type=directory_sync`)).toEqual([]);

      const inRange = await all(`organization_id=${globex.id}&range_start=${before}&range_end=${after}`);
      expect(inRange.map((event) => event.code)).toEqual(['user.created', 'user.updated']);
      expect(await all(`organization_id=${globex.id}&range_start=${after}`)).toEqual([]);
    },
    long,
  );

  it(
    "another environment's key sees none of these events, only its own environment's",
    async () => {
      const production_org = await organization('Feed Production', 'feed-production.com', production);
      await eventually(async () => (await all('events=organization.created', production)).length > 0, long);
      const seen = await all('', production);
      expect(seen.every((event) => event.environment === 'production')).toBe(true);
      expect(seen.map((event) => event.organization_id)).toContain(production_org.id);
      expect(await all(`organization_id=${acme.id}`, production)).toEqual([]);
      expect(await all(`organization_id=${production_org.id}`)).toEqual([]);
    },
    long,
  );

  it(
    'answers the whole feed from a restarted webhooks service (each replica rebuilds it from the streams)',
    async () => {
      const query = `organization_id=${acme.id}&events=organization.created,user.created`;
      const before = await all(query);
      expect(before.length).toBeGreaterThan(0);
      await system.restart(['webhooks']);
      await eventually(async () => (await all(query).catch(() => [])).length === before.length, long);
      expect((await all(query)).map((event) => event.id)).toEqual(before.map((event) => event.id));
    },
    2 * long,
  );

  it('refuses a key without the webhooks:read privilege', async () => {
    const usersOnly = system.createApiKey('sandbox', ['users:read']);
    expect(await system.request('GET', '/api/v2/events', { key: usersOnly })).toMatchObject({ status: 401, body: unauthorized });
  });

  it.each([
    ['after=not-a-cursor!', { after: ['is not a cursor of this feed'] }],
    [`after=${Buffer.from('{"gateway":[1,0]}').toString('base64url')}`, { after: ['is not a cursor of this feed'] }],
    ['limit=0', { limit: ['must be greater than or equal to 1'] }],
    ['limit=101', { limit: ['must be less than or equal to 100'] }],
    ['events=user.created,user.exploded', { 'events.1': ['is not a known event code'] }],
    ['events=nothing.*', { 'events.0': ['is not a known event code'] }],
    ['actor_type=robot', { actor_type: ['must be one of: api_key, directory_sync, sso_connection, user, it_admin, system'] }],
    ['range_start=yesterday', { range_start: ['is not a valid ISO 8601 date-time'] }],
  ])('refuses %s with 422', async (query, errors) => {
    const { status, body } = await system.request('GET', `/api/v2/events?${query}`);
    expect(status).toBe(422);
    expect(body).toEqual({ errors });
  });

  describe('POST /api/v2/webhooks/{id}/replay', () => {
    let webhook: { id: string };
    const replay = (query: string, key?: ApiKey, id = webhook.id) =>
      system.request('POST', `/api/v2/webhooks/${id}/replay${query ? `?${query}` : ''}`, { key });
    const idsDeliveredTo = (route: string) => receiver.to(route).map((delivery) => String(delivery.headers['webhook-id']));

    beforeAll(async () => {
      // Created after the walk's users: it never received their user.created.
      const { status, body } = await system.request('POST', '/api/v2/webhooks', {
        body: {
          name: 'Replay',
          event_codes: ['user.created'],
          target_url: `${receiver.url}/replay`,
          organization_domain: acme.domain,
        },
      });
      if (status !== 201) throw new Error(`webhook: ${status} ${JSON.stringify(body)}`);
      webhook = body;
    });

    it(
      'delivers the events it missed with their original ids, then again when replayed again',
      async () => {
        const missed = await all(`organization_id=${acme.id}&events=user.created`);
        expect(missed).toHaveLength(24);
        const first = await replay('limit=100');
        expect(first.status).toBe(200);
        expect(first.body.data.map((job: any) => job.args.id)).toEqual(missed.map((event) => event.id));
        expect(first.body.data[0]).toMatchObject({
          state: 'available',
          args: { __domain__: acme.domain, code: 'user.created', webhook_id: webhook.id, data: missed[0]?.data },
        });
        expect(first.body.list_metadata.has_more).toBe(false);
        await eventually(async () => idsDeliveredTo('/replay').length === 24, long);
        expect(idsDeliveredTo('/replay').sort()).toEqual(missed.map((event) => event.id).sort());

        // Nothing after the cursor it answered.
        const next = await replay(`after=${first.body.list_metadata.after}`);
        expect(next.body).toEqual({ data: [], list_metadata: { after: first.body.list_metadata.after, has_more: false } });

        // Again from the start, by pages: the finished jobs are retried, with the same ids.
        const again = await replay('limit=10');
        expect(again.body.data.map((job: any) => job.args.id)).toEqual(missed.slice(0, 10).map((event) => event.id));
        expect(again.body.list_metadata.has_more).toBe(true);
        await eventually(async () => idsDeliveredTo('/replay').length === 34, long);
        expect(new Set(idsDeliveredTo('/replay')).size).toBe(24);
      },
      2 * long,
    );

    it("refuses another environment's key (not found) and a bad cursor", async () => {
      expect(await replay('', production)).toMatchObject({ status: 404, body: notFound });
      expect(await replay('', undefined, 'webhook_000000000000000000000000')).toMatchObject({ status: 404, body: notFound });
      expect(await replay('after=nope!')).toMatchObject({
        status: 422,
        body: { errors: { after: ['is not a cursor of this feed'] } },
      });
    });

    it('refuses a key without the webhooks:write privilege', async () => {
      const reader = system.createApiKey('sandbox', ['webhooks:read']);
      expect(await replay('', reader)).toMatchObject({ status: 401, body: unauthorized });
    });
  });
});
