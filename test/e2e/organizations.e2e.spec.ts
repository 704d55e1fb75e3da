import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eventually, pendingStatus, readyOrganization, readyStatus } from '../support/identity-fixtures';
import { System } from '../support/system';

const unauthorized = {
  error: {
    type: 'unauthorized',
    message: 'Missing an api key with the requested privilegies',
    doc_urls: ['http://localhost:8000/how-to-use-api-key'],
  },
};
const notFound = {
  error: { type: 'resource_not_found', message: 'Resource Not Found', doc_urls: ['http://localhost:8000/api'] },
};

describe('Organizations over HTTP (all processes, real NATS)', () => {
  let system: System;
  beforeAll(async () => {
    system = await System.start();
  });
  afterAll(async () => {
    await system?.stop();
  });

  describe('create', () => {
    it('creates from JSON with every field and derives the domain from the name', async () => {
      const { status, body } = await system.request('POST', '/api/v2/organizations', {
        body: {
          name: 'Café Déjà Vu',
          allowed_email_domains: ['cafe.example', 'CAFE.example'],
          color: '#1a2b3c',
          icon_logo_url: 'https://cafe.example/icon.png',
          locale: 'fr-FR',
          timezone: 'Europe/Paris',
        },
      });
      expect(status).toBe(201);
      expect(body).toEqual({
        __type__: 'Organization',
        __domain__: 'cafe-deja-vu',
        __environment__: 'sandbox',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Café Déjà Vu',
        domain: 'cafe-deja-vu',
        tenant_id: null,
        allowed_email_domains: ['cafe.example'],
        allowed_authn_connections: ['sso', 'password', 'magic_link', 'totp'],
        color: '#1a2b3c',
        icon_logo_url: 'https://cafe.example/icon.png',
        inline_logo_url: null,
        locale: 'fr-FR',
        timezone: 'Europe/Paris',
        environments: [{ name: 'sandbox', status: 'up' }],
        status: pendingStatus,
        inserted_at: expect.any(String),
        updated_at: body.inserted_at,
      });
      expect(await readyOrganization(system, 'cafe-deja-vu')).toEqual({ ...body, status: readyStatus });
    });

    it('creates from a form-encoded body with bracket notation', async () => {
      const { status, body } = await system.request('POST', '/api/v2/organizations', {
        form: 'name=Form+Made&allowed_email_domains[]=form.example&allowed_email_domains[]=made.example&color=',
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({ domain: 'form-made', allowed_email_domains: ['form.example', 'made.example'], color: null });
    });

    it("creates from the form Cryptr's Kotlin SDK sends: a type marker, an empty pair for an empty list", async () => {
      // Cryptr.createOrganization(name, allowedEmailDomains): its Organization encoded with defaults, nulls left out.
      const form = '__type__=Organization&name=Kotlin+Made&&allowed_email_domains[]=kotlin.example';
      const { status, body } = await system.request('POST', '/api/v2/organizations', { form });
      expect(status).toBe(201);
      expect(body).toMatchObject({ domain: 'kotlin-made', allowed_email_domains: ['kotlin.example'], status: pendingStatus });
    });

    it.each([
      ['a missing name', {}, { name: ["can't be blank"] }],
      ['a blank name', { name: '   ' }, { name: ["can't be blank"] }],
      ['a name with no letter or digit', { name: '!!!' }, { name: ['must contain at least one letter or digit'] }],
      ['a name of the wrong type', { name: 42 }, { name: ['must be a string'] }],
      [
        'a bad email domain',
        { name: 'Bad Domains', allowed_email_domains: ['not a domain'] },
        { 'allowed_email_domains.0': ['is not a valid domain name'] },
      ],
      ['a bad colour', { name: 'Bad Colour', color: 'red' }, { color: ['must be a hex colour such as #1a2b3c'] }],
      ['a bad logo URL', { name: 'Bad Logo', icon_logo_url: 'ftp://x' }, { icon_logo_url: ['is not a valid URL'] }],
      ['a bad time zone', { name: 'Bad Zone', timezone: 'Mars/Olympus' }, { timezone: ['is not a valid IANA time zone'] }],
      [
        'a bad connection',
        { name: 'Bad Conn', allowed_authn_connections: ['fax'] },
        { 'allowed_authn_connections.0': ['must be one of: sso, password, magic_link, totp'] },
      ],
    ])('refuses %s with 422 field errors and writes nothing', async (_case, payload, errors) => {
      const before = (await system.request('GET', '/api/v2/organizations?per_page=100')).body.total;
      const { status, body } = await system.request('POST', '/api/v2/organizations', { body: payload });
      expect(status).toBe(422);
      expect(body).toEqual({ errors });
      expect((await system.request('GET', '/api/v2/organizations?per_page=100')).body.total).toBe(before);
    });

    it('refuses a domain already taken, even from another spelling of the name', async () => {
      expect((await system.request('POST', '/api/v2/organizations', { body: { name: 'Taken Inc' } })).status).toBe(201);
      const { status, body } = await system.request('POST', '/api/v2/organizations', { body: { name: 'TAKEN inc.' } });
      expect(status).toBe(422);
      expect(body).toEqual({ errors: { domain: ['has already been taken'] } });
    });

    it('lets exactly one of concurrent creations of one domain succeed', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => system.request('POST', '/api/v2/organizations', { body: { name: 'Race Condition' } })),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      for (const answer of answers.filter((a) => a.status !== 201))
        expect(answer).toMatchObject({ status: 422, body: { errors: { domain: ['has already been taken'] } } });
    });

    it('answers 400 in the error shape for malformed JSON', async () => {
      const { status, body } = await system.request('POST', '/api/v2/organizations', { body: '{"name": "Broken' });
      expect(status).toBe(400);
      expect(body).toEqual({
        error: { type: 'bad_request', message: 'Malformed JSON body', doc_urls: ['http://localhost:8000/api'] },
      });
    });

    it('answers 422 when the body is not an object', async () => {
      const { status, body } = await system.request('POST', '/api/v2/organizations', { body: '["a"]' });
      expect(status).toBe(422);
      expect(body).toEqual({ errors: { base: ['must be a JSON object or form fields'] } });
    });

    it('answers 415 for another content type', async () => {
      const { status, body } = await system.request('POST', '/api/v2/organizations', {
        body: 'name=x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(status).toBe(415);
      expect(body.error.type).toBe('unsupported_media_type');
    });

    it('answers 413 for a body over the size limit', async () => {
      const { status, body } = await system.request('POST', '/api/v2/organizations', {
        body: { name: 'Big', color: 'x'.repeat(1_100_000) },
      });
      expect(status).toBe(413);
      expect(body).toEqual({
        error: { type: 'payload_too_large', message: 'Request body is too large', doc_urls: ['http://localhost:8000/api'] },
      });
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      for (const name of ['List A', 'List B', 'List C'])
        expect((await system.request('POST', '/api/v2/organizations', { body: { name } })).status).toBe(201);
      const down = await system.request('PUT', '/api/v2/organizations/list-b', {
        body: { environments: [{ name: 'sandbox', status: 'down' }] },
      });
      expect(down).toMatchObject({ status: 200, body: { environments: [{ name: 'sandbox', status: 'down' }] } });
    });

    it('pages with page and per_page', async () => {
      const all = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
      const { status, body } = await system.request('GET', '/api/v2/organizations?per_page=2&page=2');
      expect(status).toBe(200);
      expect(body.data.map((o: { domain: string }) => o.domain)).toEqual(
        all.data.slice(2, 4).map((o: { domain: string }) => o.domain),
      );
      expect(body.total).toBe(all.total);
      expect(body.pagination).toEqual({
        current_page: 2,
        current_pages: 2,
        next_page: all.total > 4 ? 3 : null,
        prev_page: 1,
        per_page: 2,
        total_pages: Math.ceil(all.total / 2),
      });
    });

    it('filters with q[environments_status_in][]', async () => {
      const down = (await system.request('GET', '/api/v2/organizations?q[environments_status_in][]=down&per_page=100')).body;
      expect(down.data.map((o: { domain: string }) => o.domain)).toEqual(['list-b']);
      expect(down.total).toBe(1);
    });

    it.each([
      ['per_page=abc', { per_page: ['must be a number'] }],
      ['per_page=1000', { per_page: ['must be less than or equal to 100'] }],
      ['page=0', { page: ['must be greater than or equal to 1'] }],
      ['q[environments_status_in][]=sideways', { 'q.environments_status_in.0': ['must be one of: up, down'] }],
    ])('refuses %s with 422', async (query, errors) => {
      const { status, body } = await system.request('GET', `/api/v2/organizations?${query}`);
      expect(status).toBe(422);
      expect(body).toEqual({ errors });
    });
  });

  describe('get, update, delete', () => {
    beforeAll(async () => {
      expect((await system.request('POST', '/api/v2/organizations', { body: { name: 'Mutable Org' } })).status).toBe(201);
      await readyOrganization(system, 'mutable-org');
    });

    it('gets an organization by domain', async () => {
      const { status, body } = await system.request('GET', '/api/v2/organizations/mutable-org');
      expect(status).toBe(200);
      expect(body).toMatchObject({ domain: 'mutable-org', name: 'Mutable Org' });
    });

    it('answers 404 in the error shape for an unknown domain', async () => {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const { status, body } = await system.request(
          method,
          '/api/v2/organizations/no-such-org',
          method === 'PUT' ? { body: { name: 'x' } } : {},
        );
        expect([method, status, body]).toEqual([method, 404, notFound]);
      }
    });

    it('updates fields, with JSON and with bracket forms, and keeps the domain', async () => {
      const json = await system.request('PUT', '/api/v2/organizations/mutable-org', {
        body: { name: 'Renamed Org', timezone: 'UTC', allowed_email_domains: ['mutable.example'] },
      });
      expect(json.status).toBe(200);
      expect(json.body).toMatchObject({
        domain: 'mutable-org',
        name: 'Renamed Org',
        timezone: 'UTC',
        allowed_email_domains: ['mutable.example'],
      });
      expect(json.body.updated_at > json.body.inserted_at).toBe(true);
      const form = await system.request('PUT', '/api/v2/organizations/mutable-org', {
        form: 'allowed_email_domains[]=a.example&locale=en',
      });
      expect(form.body).toMatchObject({ allowed_email_domains: ['a.example'], locale: 'en', name: 'Renamed Org' });
      expect((await system.request('GET', '/api/v2/organizations/mutable-org')).body).toEqual(form.body);
    });

    it('accepts the same domain in an update but refuses another one, saying why', async () => {
      expect((await system.request('PUT', '/api/v2/organizations/mutable-org', { body: { domain: 'mutable-org' } })).status).toBe(
        200,
      );
      const { status, body } = await system.request('PUT', '/api/v2/organizations/mutable-org', { body: { domain: 'stolen' } });
      expect(status).toBe(422);
      expect(body).toEqual({ errors: { domain: ["can't be changed once the organization exists"] } });
    });

    it('changes nothing for an update that changes nothing', async () => {
      const before = (await system.request('GET', '/api/v2/organizations/mutable-org')).body;
      const after = await system.request('PUT', '/api/v2/organizations/mutable-org', { body: { name: before.name } });
      expect(after.body).toEqual(before);
    });

    it('deletes, answering { deleted, resource }, then 404s; the domain can be used again', async () => {
      expect((await system.request('POST', '/api/v2/organizations', { body: { name: 'Short Lived' } })).status).toBe(201);
      const { status, body } = await system.request('DELETE', '/api/v2/organizations/short-lived');
      expect(status).toBe(200);
      expect(body).toMatchObject({ deleted: true, resource: { domain: 'short-lived', status: { state: 'terminated' } } });
      expect((await system.request('GET', '/api/v2/organizations/short-lived')).status).toBe(404);
      expect((await system.request('DELETE', '/api/v2/organizations/short-lived')).status).toBe(404);
      const list = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
      expect(list.data.map((o: { domain: string }) => o.domain)).not.toContain('short-lived');
      const again = await system.request('POST', '/api/v2/organizations', { body: { name: 'Short Lived' } });
      expect(again.status).toBe(201);
      expect(again.body.id).not.toBe(body.resource.id);
    });
  });

  describe('authorization', () => {
    it('answers 401 without a token, with a malformed one, or with a forged one', async () => {
      const forged = (await system.token()).replace(/\.[^.]+$/, '.AAAA');
      const headerSets: Record<string, string>[] = [
        {},
        { authorization: 'Bearer nope' },
        { authorization: `Bearer ${forged}` },
        { authorization: 'Basic abc' },
      ];
      for (const headers of headerSets) {
        const {
          status,
          body,
          headers: answerHeaders,
        } = await system.request('GET', '/api/v2/organizations', { token: null, headers });
        expect(status).toBe(401);
        expect(body).toEqual(unauthorized);
        expect(answerHeaders.get('www-authenticate')).toBe('Bearer');
      }
    });

    it('checks privileges per route', async () => {
      const reader = system.createApiKey('sandbox', ['organizations:read']);
      expect((await system.request('GET', '/api/v2/organizations', { key: reader })).status).toBe(200);
      const write = await system.request('POST', '/api/v2/organizations', { key: reader, body: { name: 'Not Allowed' } });
      expect(write).toMatchObject({ status: 401, body: unauthorized });
      const other = system.createApiKey('sandbox', ['users:read']);
      expect((await system.request('GET', '/api/v2/organizations', { key: other })).status).toBe(401);
    });
  });

  describe('transport', () => {
    it('echoes a valid correlation id and makes one up otherwise', async () => {
      const given = await system.request('GET', '/api/v2/organizations', { headers: { 'x-correlation-id': 'trace-123' } });
      expect(given.headers.get('x-correlation-id')).toBe('trace-123');
      const invalid = await system.request('GET', '/api/v2/organizations', {
        headers: { 'x-correlation-id': 'bad id\twith tab' },
      });
      expect(invalid.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('answers 404 in the error shape for an unknown route', async () => {
      const { status, body } = await system.request('GET', '/api/v2/nothing-here');
      expect(status).toBe(404);
      expect(body).toEqual(notFound);
    });

    it('serves the OpenAPI document, its 3.0 rendition and the probes', async () => {
      const committed = (name: string) => JSON.parse(readFileSync(resolve(__dirname, '../../contracts', name), 'utf8'));
      const openApi = await system.request('GET', '/openapi.json', { token: null });
      expect(openApi.body.openapi).toBe('3.1.0');
      expect(Object.keys(openApi.body.paths)).toContain('/api/v2/organizations/{org_domain}');
      expect(openApi.body).toEqual(committed('openapi.json'));
      const openApi30 = await system.request('GET', '/openapi-3.0.json', { token: null });
      expect(openApi30.status).toBe(200);
      expect(openApi30.body.openapi).toBe('3.0.3');
      expect(openApi30.body).toEqual(committed('openapi-3.0.json'));
      expect((await system.request('GET', '/healthz', { token: null })).body).toEqual({ status: 'ok' });
      const metrics = await fetch(system.metricsUrl('gateway')).then((response) => response.text());
      expect(metrics).toContain('sesame_http_requests_total');
    });
  });

  describe('status', () => {
    it('stays pending while a service has not taken the organization in, and becomes ready once it has', async () => {
      await system.kill(['directory-sync']);
      const created = await system.request('POST', '/api/v2/organizations', { body: { name: 'Held Back' } });
      expect(created).toMatchObject({ status: 201, body: { domain: 'held-back', status: pendingStatus } });
      const status = async () => (await system.request('GET', '/api/v2/organizations/held-back')).body.status;
      // auth-methods and webhooks confirm; directory-sync, stopped, cannot.
      await eventually(async () => (await status()).progress_in_percentage === 66);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await status()).toEqual({
        state: 'pending',
        errors: [],
        progress_in_percentage: 66,
        estimated_time_to_complete_in_seconds: 1,
      });
      const listed = (await system.request('GET', '/api/v2/organizations?per_page=100')).body.data;
      expect(listed.find((organization: { domain: string }) => organization.domain === 'held-back').status.state).toBe('pending');
      await system.restart(['directory-sync']);
      expect(await readyOrganization(system, 'held-back')).toEqual({ ...created.body, status: readyStatus });
    });

    it('makes every organization created ready', async () => {
      await eventually(async () => {
        const { body } = await system.request('GET', '/api/v2/organizations?per_page=100');
        return (
          body.total > 0 &&
          body.data.every((organization: { status: { state: string } }) => organization.status.state === 'terminated')
        );
      });
    });
  });

  describe('restarts', () => {
    it('loses nothing when every process stops gracefully and starts again', async () => {
      const before = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
      await system.restart();
      const after = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
      expect(after).toEqual(before);
    });

    it('loses nothing acknowledged when every process is killed (SIGKILL) and restarted', async () => {
      const created = await system.request('POST', '/api/v2/organizations', { body: { name: 'Survivor' } });
      expect(created.status).toBe(201);
      const ready = await readyOrganization(system, 'survivor');
      expect(ready).toEqual({ ...created.body, status: readyStatus });
      const before = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
      await system.restart(undefined, 'SIGKILL');
      const after = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
      expect(after).toEqual(before);
      expect((await system.request('GET', '/api/v2/organizations/survivor')).body).toEqual(ready);
    });
  });
});
