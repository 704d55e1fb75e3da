import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually, notFound } from '../support/identity-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Deliveries polled often so that the fan-out is seen quickly. */
const deliveryEnv = { SESAME_WEBHOOK_POLL_MS: '100' };
const long = 60_000;
const path = '/api/v2/webhooks';

interface DeliveredEvent {
  code: string;
  __domain__: string | null;
  __environment__: string;
  webhook_id: string;
  data: any;
}
interface Job {
  id: number;
  args: DeliveredEvent;
}

describe('Webhooks scoped to an organization of their environment (all processes, real NATS)', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let production: ApiKey;
  let acme: string;
  let globex: string;
  /** An organization of the production environment only. */
  let productionOnly: string;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    system = await System.start({ processEnv: { webhooks: deliveryEnv } });
    production = system.createApiKey('production');
    acme = await createOrganization(system, 'Scope Acme', { allowed_email_domains: ['scope-acme.com'] });
    globex = await createOrganization(system, 'Scope Globex', { allowed_email_domains: ['scope-globex.com'] });
    productionOnly = await createOrganization(system, 'Scope Production Only', {}, production);
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
  });

  const create = (body: Record<string, unknown>, key?: ApiKey) =>
    system.request('POST', path, { key, body: { name: 'Scoped', event_codes: ['user.created'], ...body } });
  const createTo = async (route: string, event_codes: string[], organization_domain?: string, key?: ApiKey) => {
    const { status, body } = await create(
      {
        name: route,
        event_codes,
        target_url: `${receiver.url}${route}`,
        ...(organization_domain ? { organization_domain } : {}),
      },
      key,
    );
    if (status !== 201) throw new Error(`webhook ${route}: ${status} ${JSON.stringify(body)}`);
    return body as { id: string; organization_domain: string | null };
  };
  const jobsOf = async (webhookId: string, key?: ApiKey) =>
    ((await system.request('GET', `/api/v2/webhook-events?webhook_id=${webhookId}&per_page=100`, { key })).body?.data ??
      []) as Job[];
  const eventsTo = (route: string) => receiver.to(route).map((delivery) => JSON.parse(delivery.body) as DeliveredEvent);
  const deliveredTo = async (route: string, match: (event: DeliveredEvent) => boolean) => {
    await eventually(async () => eventsTo(route).some(match), long);
    return eventsTo(route).find(match) as DeliveredEvent;
  };

  it('creates a webhook scoped to an organization: organization_domain and __domain__ name it', async () => {
    const target_url = `${receiver.url}/created`;
    const created = await create({ target_url, organization_domain: acme });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      __type__: 'Webhook',
      __domain__: acme,
      __environment__: 'sandbox',
      id: expect.stringMatching(/^webhook_[0-9a-f]{24}$/),
      name: 'Scoped',
      active: true,
      event_codes: ['user.created'],
      target_url,
      organization_domain: acme,
      signature_key: expect.stringMatching(/^whsec_/),
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const fetched = await system.request('GET', `${path}/${created.body.id}`);
    expect(fetched).toMatchObject({ status: 200, body: { ...created.body, signature_key: null } });
    const unscoped = await create({ target_url, organization_domain: null });
    expect(unscoped).toMatchObject({ status: 201, body: { __domain__: null, organization_domain: null } });
    const form = `name=Form&event_codes[]=user.created&target_url=${encodeURIComponent(target_url)}&organization_domain=${globex}`;
    expect(await system.request('POST', path, { form })).toMatchObject({ status: 201, body: { organization_domain: globex } });
  });

  it('answers 404 resource_not_found for an organization that does not exist in the environment of the key', async () => {
    const target_url = `${receiver.url}/refused`;
    for (const [organization_domain, key] of [
      ['no-such-organization', undefined],
      [productionOnly, undefined],
      [acme, production],
    ] as const)
      expect(await create({ target_url, organization_domain }, key)).toEqual({
        status: 404,
        body: notFound,
        headers: expect.anything(),
      });
    expect((await system.request('GET', `${path}?organization_domain=${productionOnly}`)).body.total).toBe(0);
  });

  it('refuses a blank or too long organization_domain with 422 field errors', async () => {
    const target_url = `${receiver.url}/refused`;
    expect(await create({ target_url, organization_domain: ' ' })).toEqual({
      status: 422,
      body: { errors: { organization_domain: ["can't be blank"] } },
      headers: expect.anything(),
    });
    expect(await create({ target_url, organization_domain: 'a'.repeat(101) })).toEqual({
      status: 422,
      body: { errors: { organization_domain: ['is too long (maximum is 100 characters)'] } },
      headers: expect.anything(),
    });
  });

  it('changes the scope by PUT, checked as at creation; null makes the webhook unscoped again', async () => {
    const webhook = await createTo('/rescoped', ['user.created'], acme);
    const url = `${path}/${webhook.id}`;
    expect(await system.request('PUT', url, { body: { organization_domain: globex } })).toMatchObject({
      status: 200,
      body: { id: webhook.id, __domain__: globex, organization_domain: globex, name: '/rescoped' },
    });
    for (const organization_domain of ['no-such-organization', productionOnly])
      expect(await system.request('PUT', url, { body: { organization_domain } })).toEqual({
        status: 404,
        body: notFound,
        headers: expect.anything(),
      });
    expect(await system.request('PUT', url, { key: production, body: { organization_domain: productionOnly } })).toEqual({
      status: 404,
      body: notFound,
      headers: expect.anything(),
    });
    expect((await system.request('GET', url)).body).toMatchObject({ organization_domain: globex, __domain__: globex });
    expect(await system.request('PUT', url, { body: { organization_domain: null } })).toMatchObject({
      status: 200,
      body: { __domain__: null, organization_domain: null },
    });
    expect(await system.request('PUT', url, { body: { name: 'kept unscoped' } })).toMatchObject({
      status: 200,
      body: { name: 'kept unscoped', organization_domain: null },
    });
  });

  it('lists the webhooks of one organization with ?organization_domain=, in the environment of the key only', async () => {
    const domain = await createOrganization(system, 'Scope Listed');
    await createOrganization(system, 'Scope Listed', {}, production);
    const first = await createTo('/listed-1', ['user.created'], domain);
    const second = await createTo('/listed-2', ['user.deleted'], domain);
    await createTo('/listed-production', ['user.created'], domain, production);
    const listed = await system.request('GET', `${path}?organization_domain=${domain}`);
    expect(listed).toMatchObject({ status: 200, body: { total: 2 } });
    expect(listed.body.data.map((webhook: { id: string }) => webhook.id)).toEqual([first.id, second.id]);
    expect(listed.body.data.every((webhook: { organization_domain: string }) => webhook.organization_domain === domain)).toBe(
      true,
    );
    const inProduction = await system.request('GET', `${path}?organization_domain=${domain}`, { key: production });
    expect(inProduction.body).toMatchObject({ total: 1, data: [{ name: '/listed-production', __environment__: 'production' }] });
    expect((await system.request('GET', `${path}?organization_domain=no-such-organization`)).body).toMatchObject({
      total: 0,
      data: [],
    });
  });

  it("delivers A's events to the webhook scoped to A and to the unscoped one; B's and organization-less ones to the unscoped only", async () => {
    const scoped = await createTo('/acme-only', ['user.created', 'redirect_uri.created'], acme);
    const unscoped = await createTo('/everyone', ['user.created', 'redirect_uri.created']);
    const ada = await system.request('POST', `/api/v2/org/${acme}/users`, { body: { email: 'ada@scope-acme.com' } });
    const bob = await system.request('POST', `/api/v2/org/${globex}/users`, { body: { email: 'bob@scope-globex.com' } });
    const uri = await system.request('POST', '/api/v2/redirect_uris', { body: { url: 'https://scope.hooks.example/cb' } });
    expect([ada.status, bob.status, uri.status]).toEqual([201, 201, 201]);

    const toAda = (event: DeliveredEvent) => event.code === 'user.created' && event.data.user?.id === ada.body.id;
    const toBob = (event: DeliveredEvent) => event.code === 'user.created' && event.data.user?.id === bob.body.id;
    const toUri = (event: DeliveredEvent) => event.code === 'redirect_uri.created' && event.data.redirect_uri?.id === uri.body.id;
    expect(await deliveredTo('/acme-only', toAda)).toMatchObject({ __domain__: acme, webhook_id: scoped.id });
    expect(await deliveredTo('/everyone', toAda)).toMatchObject({ __domain__: acme, webhook_id: unscoped.id });
    expect(await deliveredTo('/everyone', toBob)).toMatchObject({ __domain__: globex });
    expect(await deliveredTo('/everyone', toUri)).toMatchObject({ __domain__: null });
    // Every webhook's jobs of an event are created together: the scoped one has A's job only.
    const jobs = await jobsOf(scoped.id);
    expect(jobs.map((job) => [job.args.code, job.args.__domain__])).toEqual([['user.created', acme]]);
    expect(eventsTo('/acme-only').filter((event) => toBob(event) || toUri(event))).toEqual([]);
    expect((await jobsOf(unscoped.id)).map((job) => job.args.__domain__).sort()).toEqual([acme, globex, null].sort());
  });

  it('trigger-test reaches a scoped webhook too, its test event naming its organization', async () => {
    const scoped = await createTo('/test-scoped', ['admin.invited'], acme);
    const unscoped = await createTo('/test-unscoped', ['admin.invited']);
    const triggered = await system.request('POST', '/api/v2/webhook-events/trigger-test', {
      body: { event_code: 'admin.invited' },
    });
    expect(triggered).toMatchObject({ status: 201, body: { total: 2 } });
    const byWebhook = Object.fromEntries((triggered.body.data as Job[]).map((job) => [job.args.webhook_id, job.args.__domain__]));
    expect(byWebhook).toEqual({ [scoped.id]: acme, [unscoped.id]: null });
    expect(await deliveredTo('/test-scoped', (event) => event.code === 'admin.invited')).toMatchObject({
      __domain__: acme,
      data: { test: true },
    });
  });

  it('deletes the webhooks scoped to a deleted organization, in its environment only; organization.deleted reaches unscoped ones', async () => {
    const domain = await createOrganization(system, 'Scope Doomed');
    expect(await createOrganization(system, 'Scope Doomed', {}, production)).toBe(domain);
    const codes = ['organization.deleted', 'organization.updated'];
    const doomed = await createTo('/doomed', codes, domain);
    const survivor = await createTo('/doomed-production', codes, domain, production);
    const unscoped = await createTo('/doomed-everyone', codes);
    expect((await system.request('DELETE', `/api/v2/organizations/${domain}`)).status).toBe(200);

    const deletedEvent = await deliveredTo(
      '/doomed-everyone',
      (event) => event.code === 'organization.deleted' && event.__domain__ === domain,
    );
    expect(deletedEvent).toMatchObject({ webhook_id: unscoped.id, data: { domain } });
    await eventually(async () => (await system.request('GET', `${path}/${doomed.id}`)).status === 404, long);
    expect(await system.request('GET', `${path}/${doomed.id}`)).toMatchObject({ status: 404, body: notFound });
    expect((await system.request('GET', `${path}?organization_domain=${domain}`)).body.total).toBe(0);
    expect(await jobsOf(doomed.id)).toEqual([]);
    expect(eventsTo('/doomed')).toEqual([]);
    expect(await system.request('GET', `${path}/${survivor.id}`, { key: production })).toMatchObject({
      status: 200,
      body: { organization_domain: domain, active: true },
    });

    // A new organization of the same domain starts without the deleted one's webhooks.
    expect(await createOrganization(system, 'Scope Doomed')).toBe(domain);
    const fresh = await createTo('/doomed-again', codes, domain);
    expect((await system.request('GET', `${path}?organization_domain=${domain}`)).body).toMatchObject({
      total: 1,
      data: [{ id: fresh.id }],
    });
  });

  it('answers 503 service_unavailable for a scoped webhook while identity does not answer; unscoped ones need no identity', async () => {
    const target_url = `${receiver.url}/identity-down`;
    await system.kill(['identity']);
    try {
      expect(await create({ target_url, organization_domain: acme })).toMatchObject({
        status: 503,
        body: { error: { type: 'service_unavailable', message: 'Service Unavailable', doc_urls: ['http://localhost:8000/api'] } },
      });
      expect(await create({ target_url })).toMatchObject({ status: 201, body: { organization_domain: null } });
    } finally {
      await system.restart(['identity']);
    }
    expect(await create({ target_url, organization_domain: acme })).toMatchObject({
      status: 201,
      body: { organization_domain: acme },
    });
  });
});
