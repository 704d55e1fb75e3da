import { Webhook } from 'standardwebhooks';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually, notFound } from '../support/identity-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { ReceivedDelivery } from '../support/webhook-receiver';

/** Short retry timers so that five attempts fit in a test; the lease outlives connect + response. */
const deliveryEnv = {
  SESAME_WEBHOOK_BACKOFF_BASE_MS: '200',
  SESAME_WEBHOOK_BACKOFF_MAX_MS: '1000',
  SESAME_WEBHOOK_CONNECT_TIMEOUT_MS: '1000',
  SESAME_WEBHOOK_RESPONSE_TIMEOUT_MS: '4000',
  SESAME_WEBHOOK_LEASE_MS: '6000',
  SESAME_WEBHOOK_POLL_MS: '100',
};
const long = 90_000;

const headersOf = (delivery: ReceivedDelivery) => ({
  'webhook-id': String(delivery.headers['webhook-id']),
  'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
  'webhook-signature': String(delivery.headers['webhook-signature']),
});
const eventOf = (delivery: ReceivedDelivery) =>
  JSON.parse(delivery.body) as { id: string; code: string; webhook_id: string; data: any };

describe('Webhook delivery to a real receiver (all processes, real NATS)', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let production: ApiKey;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    system = await System.start({ processEnv: { webhooks: deliveryEnv } });
    production = system.createApiKey('production');
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  const createWebhook = async (path: string, event_codes: string[], key?: ApiKey) => {
    const { status, body } = await system.request('POST', '/api/v2/webhooks', {
      key,
      body: { name: path, event_codes, target_url: `${receiver.url}${path}` },
    });
    if (status !== 201) throw new Error(`webhook ${path}: ${status} ${JSON.stringify(body)}`);
    return body as { id: string; signature_key: string };
  };
  /** The jobs of a webhook (none while the service restarts and the gateway answers 503). */
  const jobsOf = async (webhookId: string, key?: ApiKey) =>
    ((await system.request('GET', `/api/v2/webhook-events?webhook_id=${webhookId}&per_page=100`, { key })).body?.data ??
      []) as any[];
  const trigger = async (event_code: string, key?: ApiKey) => {
    const { status, body } = await system.request('POST', '/api/v2/webhook-events/trigger-test', { key, body: { event_code } });
    expect(status).toBe(201);
    return body as { data: any[]; total: number };
  };
  const settled = (webhookId: string, state: string, key?: ApiKey) =>
    eventually(async () => (await jobsOf(webhookId, key)).some((job) => job.state === state), long);

  it('delivers a product event signed with the Standard Webhooks scheme', async () => {
    const webhook = await createWebhook('/users', ['user.created']);
    const domain = await createOrganization(system, 'Hooked Corp', { allowed_email_domains: ['hooked.com'] });
    const user = await system.request('POST', `/api/v2/org/${domain}/users`, { body: { email: 'ada@hooked.com' } });
    expect(user.status).toBe(201);
    await eventually(async () => receiver.to('/users').length > 0, long);
    const [delivery] = receiver.to('/users') as [ReceivedDelivery];
    const verified = new Webhook(webhook.signature_key).verify(delivery.body, headersOf(delivery));
    expect(verified).toMatchObject({
      __type__: 'Event',
      __domain__: domain,
      __environment__: 'sandbox',
      code: 'user.created',
      webhook_id: webhook.id,
      client_id: system.apiKey.clientId,
      description: 'A user was created (API, SSO, SCIM, magic link or password)',
      data: { user: { id: user.body.id, email: 'ada@hooked.com' }, organization_domain: domain },
    });
    expect(delivery.headers['webhook-id']).toBe(eventOf(delivery).id);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(delivery.body, headersOf(delivery)),
    ).toThrow();
    await settled(webhook.id, 'completed');
    const [job] = await jobsOf(webhook.id);
    expect(job).toMatchObject({ id: expect.any(Number), attempt: 1, max_attempts: 5, state: 'completed', args: verified });
    expect(job.completed_at).toEqual(expect.any(String));
    expect(receiver.to('/users')).toHaveLength(1);
  });

  it('delivers auth-methods events: a password set and a failed password sign-in, without hashes', async () => {
    const webhook = await createWebhook('/passwords', ['password.created', 'password.challenge.failed']);
    const domain = await createOrganization(system, 'Password Hooks', { allowed_email_domains: ['pwhooks.com'] });
    const plain_text = 'correct horse battery staple 42';
    const set = await system.request('POST', '/api/v2/password', {
      body: { org_domain: domain, user_email: 'ada@pwhooks.com', plain_text },
    });
    expect(set.status).toBe(201);
    await system.request('POST', '/api/v2/password-challenge', {
      body: { org_domain: domain, user_email: 'ada@pwhooks.com', plain_text: 'not the right passphrase 0' },
    });
    await eventually(async () => receiver.to('/passwords').length >= 2, long);
    const events = receiver
      .to('/passwords')
      .map((delivery) => new Webhook(webhook.signature_key).verify(delivery.body, headersOf(delivery)) as any);
    expect(events.map((event) => event.code).sort()).toEqual(['password.challenge.failed', 'password.created']);
    expect(events.find((event) => event.code === 'password.created')).toMatchObject({
      __domain__: domain,
      data: { user_id: set.body.user_id, password_id: set.body.id },
    });
    expect(events.find((event) => event.code === 'password.challenge.failed')).toMatchObject({
      __domain__: domain,
      data: { email: 'ada@pwhooks.com' },
    });
    expect(JSON.stringify(events)).not.toMatch(/argon2|pepper|code_hash/);
  });

  it('trigger-test sends a test event to the matching active webhooks now', async () => {
    const webhook = await createWebhook('/test', ['organization.created']);
    await createWebhook('/other-code', ['organization.deleted']);
    const { data, total } = await trigger('organization.created');
    expect(total).toBe(1);
    expect(data[0]).toMatchObject({
      attempt: 0,
      max_attempts: 5,
      state: 'available',
      args: { code: 'organization.created', data: { test: true }, webhook_id: webhook.id, description: 'Test event' },
    });
    await eventually(async () => receiver.to('/test').length > 0, long);
    expect(eventOf(receiver.to('/test')[0] as ReceivedDelivery)).toMatchObject({
      code: 'organization.created',
      data: { test: true },
    });
    expect(receiver.to('/other-code')).toHaveLength(0);
    expect(
      await system.request('POST', '/api/v2/webhook-events/trigger-test', { body: { event_code: 'user.exploded' } }),
    ).toMatchObject({
      status: 422,
      body: { errors: { event_code: ['is not a known event code'] } },
    });
  });

  it('retries a failing receiver with backoff, keeping the webhook-id, until it answers 2xx', async () => {
    receiver.on('/flaky', (attempt) => (attempt <= 2 ? { status: 500 } : { status: 204 }));
    const webhook = await createWebhook('/flaky', ['admin.invited']);
    await trigger('admin.invited');
    await settled(webhook.id, 'completed');
    const [job] = await jobsOf(webhook.id);
    expect(job).toMatchObject({ attempt: 3, state: 'completed' });
    const attempts = receiver.to('/flaky');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
    for (const delivery of attempts) new Webhook(webhook.signature_key).verify(delivery.body, headersOf(delivery));
  });

  it("honours a receiver's Retry-After: the next attempt waits for it and does not count", async () => {
    receiver.on('/busy', (attempt) => (attempt === 1 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 }));
    const webhook = await createWebhook('/busy', ['redirect_uri.created']);
    await trigger('redirect_uri.created');
    await eventually(async () => (await jobsOf(webhook.id))[0]?.state === 'scheduled' || receiver.to('/busy').length > 1, long);
    await settled(webhook.id, 'completed');
    const [first, second] = receiver.to('/busy') as [ReceivedDelivery, ReceivedDelivery];
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1_900);
    expect((await jobsOf(webhook.id))[0]).toMatchObject({ attempt: 2, max_attempts: 6, state: 'completed' });
  });

  it('discards a job after five failed attempts; a manual retry makes it available again', async () => {
    receiver.on('/down', () => ({ status: 503 }));
    const webhook = await createWebhook('/down', ['user_metakey.created']);
    await trigger('user_metakey.created');
    await settled(webhook.id, 'discarded');
    const [job] = await jobsOf(webhook.id);
    expect(job).toMatchObject({ attempt: 5, max_attempts: 5, state: 'discarded', discarded_at: expect.any(String) });
    expect(receiver.to('/down')).toHaveLength(5);

    receiver.on('/down', () => ({ status: 200 }));
    const retried = await system.request('POST', `/api/v2/webhook-events/${job.id}/retry`);
    expect(retried).toMatchObject({ status: 200, body: { id: job.id, state: 'available', discarded_at: null, max_attempts: 6 } });
    await settled(webhook.id, 'completed');
    expect((await jobsOf(webhook.id))[0]).toMatchObject({ attempt: 6, state: 'completed' });
  });

  it("cancels a pending job, answered 'canceled' and listed 'cancelled'; it is not sent again", async () => {
    receiver.on('/later', () => ({ status: 503, headers: { 'retry-after': '3600' } }));
    const webhook = await createWebhook('/later', ['group.created']);
    await trigger('group.created');
    await settled(webhook.id, 'scheduled');
    const [job] = await jobsOf(webhook.id);
    const cancelled = await system.request('POST', `/api/v2/webhook-events/${job.id}/cancel`);
    expect(cancelled).toMatchObject({ status: 200, body: { id: job.id, state: 'canceled', cancelled_at: expect.any(String) } });
    expect((await jobsOf(webhook.id))[0]).toMatchObject({ state: 'cancelled' });
    const filtered = await system.request('GET', `/api/v2/webhook-events?state=cancelled&webhook_id=${webhook.id}`);
    expect(filtered.body).toMatchObject({ total: 1, data: [{ id: job.id }] });
    expect(receiver.to('/later')).toHaveLength(1);
  });

  it('answers 422 for a non-integer id and 404 resource_not_found for an unknown one', async () => {
    for (const action of ['retry', 'cancel']) {
      expect(await system.request('POST', `/api/v2/webhook-events/abc/${action}`)).toMatchObject({
        status: 422,
        body: { errors: { id: ['must be a number'] } },
      });
      expect(await system.request('POST', `/api/v2/webhook-events/99999999/${action}`)).toMatchObject({
        status: 404,
        body: notFound,
      });
    }
    expect(await system.request('GET', '/api/v2/webhook-events?state=lost')).toMatchObject({ status: 422 });
  });

  it('keeps environments apart: a webhook receives only the events of its environment', async () => {
    const sandbox = await createWebhook('/env-sandbox', ['relay.created']);
    const prod = await createWebhook('/env-production', ['relay.created'], production);
    const { data } = await trigger('relay.created');
    expect(data.map((job) => job.args.webhook_id)).toEqual([sandbox.id]);
    await eventually(async () => receiver.to('/env-sandbox').length > 0, long);
    expect(receiver.to('/env-production')).toHaveLength(0);
    expect(await jobsOf(sandbox.id, production)).toEqual([]);
    const sandboxJob = data[0];
    expect(await system.request('POST', `/api/v2/webhook-events/${sandboxJob.id}/cancel`, { key: production })).toMatchObject({
      status: 404,
      body: notFound,
    });
    await trigger('relay.created', production);
    await eventually(async () => receiver.to('/env-production').length > 0, long);
    expect(eventOf(receiver.to('/env-production')[0] as ReceivedDelivery)).toMatchObject({ webhook_id: prod.id });
  });

  it('loses nothing when the service is killed during a delivery (at least once, same webhook-id)', async () => {
    receiver.on('/slow', (attempt) => (attempt === 1 ? 'hold' : { status: 200 }));
    const slow = await createWebhook('/slow', ['password.created']);
    const whileDown = await createWebhook('/while-down', ['organization.created', 'organization.deleted']);
    await trigger('password.created');
    await eventually(async () => receiver.to('/slow').length === 1, long);
    await system.kill(['webhooks']);
    receiver.release();
    const domain = await createOrganization(system, 'Created While Down');
    expect((await system.request('DELETE', `/api/v2/organizations/${domain}`)).status).toBe(200);
    await system.restart(['webhooks']);
    await settled(slow.id, 'completed');
    const attempts = receiver.to('/slow');
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
    expect((await jobsOf(slow.id))[0]).toMatchObject({ state: 'completed', attempt: attempts.length });
    await eventually(async () => receiver.to('/while-down').length >= 2, long);
    expect(
      receiver
        .to('/while-down')
        .map((delivery) => eventOf(delivery).code)
        .sort(),
    ).toEqual(['organization.created', 'organization.deleted']);
    expect(receiver.to('/while-down').every((delivery) => eventOf(delivery).webhook_id === whileDown.id)).toBe(true);
  });

  it('delivers a flood of 10,000 events (1,000 test events to 10 webhooks), each to its webhook', async () => {
    const webhooks = await Promise.all(Array.from({ length: 10 }, () => createWebhook('/flood', ['totp.challenge.succeeded'])));
    const triggers = Number(process.env.WEBHOOK_FLOOD_TRIGGERS ?? 1_000);
    let sent = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent++ < triggers) await trigger('totp.challenge.succeeded');
      }),
    );
    const expected = triggers * webhooks.length;
    await eventually(
      async () =>
        new Set(receiver.to('/flood').map((d) => `${d.headers['webhook-id']}/${eventOf(d).webhook_id}`)).size >= expected,
      600_000,
    );
    // A delivery is marked completed after the receiver has answered: the last few may still be recording.
    const completedTotal = async () =>
      (await system.request('GET', '/api/v2/webhook-events?state=completed&per_page=1')).body.total as number;
    await eventually(async () => (await completedTotal()) >= expected, long);
    expect(await completedTotal()).toBeGreaterThanOrEqual(expected);
  }, 900_000);
});
