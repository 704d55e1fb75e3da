import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { notFound, unauthorized } from '../support/identity-fixtures';

const path = '/api/v2/redirect_uris';

describe('Redirect URIs over HTTP (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
  });
  afterAll(async () => {
    await system?.stop();
  });

  let first: { id: string };
  let second: { id: string };

  it('creates redirect URIs; the first of an environment becomes its default', async () => {
    const created = await system.request('POST', path, { body: { url: 'https://app.example.com/callback' } });
    expect(created).toMatchObject({ status: 201 });
    expect(created.body).toEqual({
      __type__: 'RedirectUri',
      __environment__: 'sandbox',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://app.example.com/callback',
      default: true,
    });
    first = created.body;
    const form = await system.request('POST', path, { form: 'url=http%3A%2F%2Fdev.example.com%3A3000%2Fcb%3Fx%3D1' });
    expect(form).toMatchObject({ status: 201, body: { url: 'http://dev.example.com:3000/cb?x=1', default: false } });
    second = form.body;
    expect((await system.request('GET', `${path}/${first.id}`)).body).toEqual(first);
  });

  it.each([
    ['no url', {}, "can't be blank"],
    ['a blank url', { url: '  ' }, "can't be blank"],
    ['a relative url', { url: '/callback' }, 'is not a valid absolute URL'],
    ['another scheme', { url: 'ftp://files.example.com/cb' }, 'must be an http or https URL'],
    ['a fragment', { url: 'https://app.example.com/cb#token' }, 'must not contain a fragment (#...)'],
    ['credentials', { url: 'https://user:pw@app.example.com/cb' }, 'must not contain credentials'],
    ['a taken url', { url: 'https://app.example.com/callback' }, 'has already been taken'],
  ])('refuses %s with 422', async (_case, body, message) => {
    expect(await system.request('POST', path, { body })).toMatchObject({ status: 422, body: { errors: { url: [message] } } });
  });

  it('lists with paging', async () => {
    await system.request('POST', path, { body: { url: 'https://third.example.com/cb' } });
    const { status, body } = await system.request('GET', `${path}?per_page=2&page=1`);
    expect(status).toBe(200);
    expect(body.data.map((uri: { id: string }) => uri.id)).toEqual([first.id, second.id]);
    expect(body.pagination).toEqual({
      current_page: 1,
      current_pages: 1,
      next_page: 2,
      prev_page: null,
      per_page: 2,
      total_pages: 2,
    });
    expect(body.total).toBe(3);
  });

  it("keeps each environment's redirect URIs and default apart", async () => {
    const prod = await system.request('POST', path, { key: production, body: { url: 'https://app.example.com/callback' } });
    expect(prod).toMatchObject({ status: 201, body: { __environment__: 'production', default: true } });
    expect(await system.request('GET', `${path}/${prod.body.id}`)).toMatchObject({ status: 404, body: notFound });
    expect((await system.request('GET', path, { key: production })).body.total).toBe(1);
    expect((await system.request('GET', `${path}/${first.id}`)).body.default).toBe(true);
  });

  it("refuses to delete the default: 'Can not remove a default Redirection'", async () => {
    const { status, body } = await system.request('DELETE', `${path}/${first.id}`);
    expect(status).toBe(422);
    expect(body).toEqual({ errors: { default: ['Can not remove a default Redirection'] } });
    expect((await system.request('GET', `${path}/${first.id}`)).status).toBe(200);
  });

  it('sets another default (exactly one default), then the old one can be deleted', async () => {
    const changed = await system.request('PUT', `${path}/${second.id}/set-as-default`);
    expect(changed).toMatchObject({ status: 200, body: { id: second.id, default: true } });
    const list = (await system.request('GET', `${path}?per_page=100`)).body.data;
    expect(list.filter((uri: { default: boolean }) => uri.default).map((uri: { id: string }) => uri.id)).toEqual([second.id]);
    expect((await system.request('PUT', `${path}/${second.id}/set-as-default`)).body.default).toBe(true);
    const deleted = await system.request('DELETE', `${path}/${first.id}`);
    expect(deleted).toMatchObject({
      status: 200,
      body: { deleted: true, resource: { id: first.id, url: 'https://app.example.com/callback', default: false } },
    });
    expect(await system.request('GET', `${path}/${first.id}`)).toMatchObject({ status: 404, body: notFound });
  });

  it('answers 404 for unknown ids and 422 for ids that are not uuids', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, url] of [
      ['GET', `${path}/${unknown}`],
      ['DELETE', `${path}/${unknown}`],
      ['PUT', `${path}/${unknown}/set-as-default`],
    ] as const)
      expect(await system.request(method, url)).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('GET', `${path}/nope`)).toMatchObject({
      status: 422,
      body: { errors: { id: ['is not a valid uuid'] } },
    });
  });

  it('allows http for any host in development mode', async () => {
    expect((await system.request('POST', path, { body: { url: 'http://staging.example.com/cb' } })).status).toBe(201);
  });

  it('checks privileges', async () => {
    const reader = system.createApiKey('sandbox', ['redirect_uris:read']);
    expect((await system.request('GET', path, { key: reader })).status).toBe(200);
    expect(await system.request('POST', path, { key: reader, body: { url: 'https://x.example.com' } })).toMatchObject({
      status: 401,
      body: unauthorized,
    });
  });

  it('serves the local outbox in development mode', async () => {
    const outbox = await system.request('GET', '/dev/outbox', { token: null });
    expect(outbox).toMatchObject({ status: 200, body: { data: expect.any(Array) } });
  });
});

describe('Redirect URIs in production mode', () => {
  let system: System;
  beforeAll(async () => {
    // Production refuses the outbox mail transport unless allowed: these tests send no email.
    system = await System.start({ env: { SESAME_MODE: 'production', SESAME_ALLOW_OUTBOX_IN_PRODUCTION: 'true' } });
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('allows http only for localhost', async () => {
    for (const url of ['http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'https://app.example.com/cb'])
      expect([url, (await system.request('POST', path, { body: { url } })).status]).toEqual([url, 201]);
    expect(await system.request('POST', path, { body: { url: 'http://app.example.com/cb' } })).toMatchObject({
      status: 422,
      body: { errors: { url: ['must use https: http is allowed only for localhost in production'] } },
    });
  });

  it('has no development outbox route', async () => {
    expect(await system.request('GET', '/dev/outbox', { token: null })).toMatchObject({ status: 404, body: notFound });
  });
});
