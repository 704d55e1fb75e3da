import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { notFound, unauthorized } from '../support/identity-fixtures';

const path = '/api/v2/webhooks';
// A public address (IANA's, of example.com) that these tests never deliver to: documentation ranges are refused.
const target = 'https://93.184.215.14/sesame';

describe('Webhooks over HTTP (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  beforeAll(async () => {
    system = await System.start({ processEnv: { webhooks: { SESAME_MODE: 'production' } } });
    production = system.createApiKey('production');
  });
  afterAll(async () => {
    await system?.stop();
  });

  let webhook: { id: string; signature_key: string };

  it('creates a webhook: webhook_ id, active by default, signature key shown once', async () => {
    const created = await system.request('POST', path, {
      body: { name: 'CRM', event_codes: ['user.created', 'user.deleted'], target_url: target },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      __type__: 'Webhook',
      __domain__: null,
      __environment__: 'sandbox',
      id: expect.stringMatching(/^webhook_[0-9a-f]{24}$/),
      name: 'CRM',
      active: true,
      event_codes: ['user.created', 'user.deleted'],
      target_url: target,
      organization_domain: null,
      signature_key: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    webhook = created.body;
    const fetched = await system.request('GET', `${path}/${webhook.id}`);
    expect(fetched).toMatchObject({ status: 200, body: { ...created.body, signature_key: null } });
  });

  it("refuses missing fields with 422 can't be blank", async () => {
    expect(await system.request('POST', path, { body: { name: '' } })).toMatchObject({
      status: 422,
      body: { errors: { name: ["can't be blank"], event_codes: ["can't be blank"], target_url: ["can't be blank"] } },
    });
    expect(await system.request('POST', path, { body: { name: 'x', event_codes: [], target_url: target } })).toMatchObject({
      status: 422,
      body: { errors: { event_codes: ["can't be blank"] } },
    });
  });

  it('refuses codes outside the catalogue and bad URLs', async () => {
    const unknown = await system.request('POST', path, {
      body: { name: 'x', event_codes: ['user.created', 'user.exploded'], target_url: target },
    });
    expect(unknown).toEqual({
      status: 422,
      body: { errors: { event_codes: ['has unknown event codes: user.exploded'] } },
      headers: expect.anything(),
    });
    const url = await system.request('POST', path, {
      body: { name: 'x', event_codes: ['user.created'], target_url: 'not a url' },
    });
    expect(url).toMatchObject({ status: 422, body: { errors: { target_url: ['is not a valid URL'] } } });
  });

  it('accepts form bodies with bracket lists', async () => {
    const form = `name=Form&event_codes[]=organization.created&event_codes[]=admin.invited&target_url=${encodeURIComponent(target)}&active=false`;
    const created = await system.request('POST', path, { form });
    expect(created).toMatchObject({
      status: 201,
      body: { name: 'Form', active: false, event_codes: ['organization.created', 'admin.invited'] },
    });
  });

  it('lists with paging, oldest first', async () => {
    const { status, body } = await system.request('GET', `${path}?per_page=1&page=1`);
    expect(status).toBe(200);
    expect(body.data.map((item: { id: string }) => item.id)).toEqual([webhook.id]);
    expect(body.data[0].signature_key).toBeNull();
    expect(body.pagination).toEqual({
      current_page: 1,
      current_pages: 1,
      next_page: 2,
      prev_page: null,
      per_page: 1,
      total_pages: 2,
    });
    expect(body.total).toBe(2);
  });

  it('updates fields and keeps the others', async () => {
    const updated = await system.request('PUT', `${path}/${webhook.id}`, {
      body: { active: false, event_codes: ['user.updated'] },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: {
        id: webhook.id,
        name: 'CRM',
        active: false,
        event_codes: ['user.updated'],
        target_url: target,
        signature_key: null,
      },
    });
    expect((await system.request('GET', `${path}/${webhook.id}`)).body.active).toBe(false);
  });

  it('rotates the signature key: a new key is shown once', async () => {
    const rotated = await system.request('POST', `${path}/${webhook.id}/rotate-signature-key`);
    expect(rotated).toMatchObject({ status: 200, body: { id: webhook.id, signature_key: expect.stringMatching(/^whsec_/) } });
    expect(rotated.body.signature_key).not.toBe(webhook.signature_key);
  });

  it('in production mode refuses targets on loopback, private or documentation addresses', async () => {
    for (const url of ['https://127.0.0.1/hook', 'https://10.0.0.8/hook', 'https://localhost/hook', 'https://203.0.113.10/hook'])
      expect(
        await system.request('POST', path, {
          key: production,
          body: { name: 'x', event_codes: ['user.created'], target_url: url },
        }),
      ).toMatchObject({
        status: 422,
        body: { errors: { target_url: ['must not resolve to a loopback, link-local or private address'] } },
      });
    expect(
      await system.request('PUT', `${path}/${webhook.id}`, { body: { target_url: 'http://hooks.example.com/in' } }),
    ).toMatchObject({ status: 422, body: { errors: { target_url: ['must use https in production'] } } });
  });

  it("keeps each environment's webhooks apart", async () => {
    expect(await system.request('GET', `${path}/${webhook.id}`, { key: production })).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect((await system.request('GET', path, { key: production })).body.total).toBe(0);
  });

  it('deletes a webhook; then it is not found', async () => {
    const deleted = await system.request('DELETE', `${path}/${webhook.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true, resource: { id: webhook.id, signature_key: null } } });
    expect(await system.request('GET', `${path}/${webhook.id}`)).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('DELETE', `${path}/${webhook.id}`)).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('PUT', `${path}/webhook_unknown`, { body: { active: true } })).toMatchObject({
      status: 404,
      body: notFound,
    });
  });

  it('requires an API key with the webhooks privileges', async () => {
    expect(await system.request('GET', path, { token: null })).toMatchObject({ status: 401, body: unauthorized });
    const reader = system.createApiKey('sandbox', ['webhooks:read']);
    expect(
      await system.request('POST', path, { key: reader, body: { name: 'x', event_codes: ['user.created'], target_url: target } }),
    ).toMatchObject({ status: 401, body: unauthorized });
  });
});
