import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';

const syncPath = (domain: string) => `/api/v2/org/${domain}/directory-sync`;
const mappingPath = '/api/v2/attributes-mapping';

describe('Directory syncs and attribute mapping over HTTP (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let readOnly: ApiKey;
  let domain: string;
  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
    readOnly = system.createApiKey('sandbox', ['directory_syncs:read']);
    domain = await createOrganization(system, 'Directory Corp');
  });
  afterAll(async () => {
    await system?.stop();
  });

  let created: any;

  it('creates the directory sync: SCIM base URL and a token shown once', async () => {
    const answer = await system.request('POST', syncPath(domain), { body: { provider_type: 'azure_ad' } });
    expect(answer.status).toBe(201);
    created = answer.body;
    expect(created).toEqual({
      __type__: 'DirectorySync',
      __domain__: domain,
      __environment__: 'sandbox',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      active: true,
      provider_type: 'azure_ad',
      auth_secret_token: {
        hint: created.auth_secret_token.value.slice(-4),
        provider_key: expect.stringMatching(/^dsk_/),
        value: expect.stringMatching(/^scim_[A-Za-z0-9_-]{43}$/),
      },
      scim_base_url: `${system.baseUrl}/scim/v2/${created.id}`,
      inserted_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const read = await system.request('GET', syncPath(domain));
    expect(read).toMatchObject({
      status: 200,
      body: { ...created, auth_secret_token: { ...created.auth_secret_token, value: null } },
    });
  });

  it("refuses a second one for the same organization and environment: 409 'A directory sync already exists'", async () => {
    expect(await system.request('POST', syncPath(domain), { body: {} })).toMatchObject({
      status: 409,
      body: {
        error: {
          type: 'directory_sync_already_exists',
          message: 'A directory sync already exists',
          doc_urls: ['http://localhost:8000/directory-sync'],
        },
      },
    });
  });

  it('keeps environments apart: production has its own organization and directory sync', async () => {
    expect(await system.request('GET', syncPath(domain), { key: production })).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('POST', syncPath(domain), { key: production, body: {} })).toMatchObject({
      status: 404,
      body: notFound,
    });
    expect(await createOrganization(system, 'Directory Corp', {}, production)).toBe(domain);
    expect(await system.request('GET', syncPath(domain), { key: production })).toMatchObject({ status: 404, body: notFound });
    const prod = await system.request('POST', syncPath(domain), { key: production, form: 'provider_type=okta&active=false' });
    expect(prod).toMatchObject({ status: 201, body: { __environment__: 'production', provider_type: 'okta', active: false } });
    expect(prod.body.id).not.toBe(created.id);
  });

  it('updates active and provider, and rotates the token on demand', async () => {
    const updated = await system.request('PUT', syncPath(domain), { body: { active: false, provider_type: 'okta' } });
    expect(updated).toMatchObject({
      status: 200,
      body: {
        id: created.id,
        active: false,
        provider_type: 'okta',
        auth_secret_token: { hint: created.auth_secret_token.hint, value: null },
      },
    });
    const rotated = await system.request('PUT', syncPath(domain), { body: { rotate_auth_secret_token: true, active: true } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.active).toBe(true);
    expect(rotated.body.auth_secret_token.value).toMatch(/^scim_/);
    expect(rotated.body.auth_secret_token.value).not.toBe(created.auth_secret_token.value);
    expect(rotated.body.auth_secret_token.hint).toBe(rotated.body.auth_secret_token.value.slice(-4));
    expect((await system.request('GET', syncPath(domain))).body.auth_secret_token.value).toBeNull();
  });

  it('answers 404 for an unknown organization or a missing directory sync', async () => {
    expect(await system.request('POST', syncPath('no-such-org'), { body: {} })).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('GET', syncPath('no-such-org'))).toMatchObject({ status: 404, body: notFound });
    const other = await createOrganization(system, 'No Directory Corp');
    expect(await system.request('PUT', syncPath(other), { body: { active: false } })).toMatchObject({
      status: 404,
      body: notFound,
    });
  });

  it('validates the fields with 422', async () => {
    expect(await system.request('POST', syncPath(domain), { body: { provider_type: 'myspace' } })).toMatchObject({
      status: 422,
      body: { errors: { provider_type: ['must be one of azure_ad, okta, ping_one, onelogin, jumpcloud, google, generic'] } },
    });
    expect(await system.request('PUT', syncPath(domain), { body: { active: 'maybe' } })).toMatchObject({ status: 422 });
  });

  it('requires an API key with the directory sync privileges', async () => {
    expect(await system.request('GET', syncPath(domain), { token: null })).toMatchObject({ status: 401, body: unauthorized });
    expect(await system.request('PUT', syncPath(domain), { key: readOnly, body: { active: true } })).toMatchObject({
      status: 401,
      body: unauthorized,
    });
    expect(await system.request('GET', syncPath(domain), { key: readOnly })).toMatchObject({ status: 200 });
  });

  it('answers the default attribute mapping, then the one set, per environment', async () => {
    const initial = await system.request('GET', mappingPath);
    expect(initial.status).toBe(200);
    expect(initial.body.__type__).toBe('AttributesMapping');
    expect(initial.body.attributes).toContainEqual({
      name: 'name.givenName',
      mapped_name: 'profile.given_name',
      required: false,
    });
    const attributes = [
      { name: 'emails[type eq "work"].value', mapped_name: 'email' },
      {
        name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
        mapped_name: 'metadata.department',
        required: false,
      },
    ];
    const set = await system.request('PUT', mappingPath, { body: { attributes } });
    expect(set).toEqual(
      expect.objectContaining({
        status: 200,
        body: {
          __type__: 'AttributesMapping',
          __environment__: 'sandbox',
          attributes: [
            { name: 'emails[type eq "work"].value', mapped_name: 'email', required: true },
            {
              name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
              mapped_name: 'metadata.department',
              required: false,
            },
          ],
        },
      }),
    );
    expect((await system.request('GET', mappingPath)).body).toEqual(set.body);
    expect((await system.request('GET', mappingPath, { key: production })).body.attributes).toEqual(initial.body.attributes);
  });

  it('sets the attribute mapping from the SDK form shape: attributes[][…] without an index', async () => {
    const form = [
      'attributes[][name]=userName',
      'attributes[][mapped_name]=email',
      'attributes[][name]=name.familyName',
      'attributes[][mapped_name]=profile.family_name',
      'attributes[][required]=false',
    ].join('&');
    const set = await system.request('PUT', mappingPath, { key: production, form });
    expect([set.status, set.body.errors]).toEqual([200, undefined]);
    expect(set.body.attributes).toEqual([
      { name: 'userName', mapped_name: 'email', required: true },
      { name: 'name.familyName', mapped_name: 'profile.family_name', required: false },
    ]);
  });

  it('refuses an invalid attribute mapping with 422 field errors', async () => {
    const answer = await system.request('PUT', mappingPath, {
      body: {
        attributes: [
          { name: 'name givenName', mapped_name: 'profile.given_name' },
          { name: 'title', mapped_name: 'profile.shoe_size' },
        ],
      },
    });
    expect(answer).toMatchObject({
      status: 422,
      body: {
        errors: {
          'attributes.0.name': ['must be a SCIM attribute path such as name.givenName or emails[type eq "work"].value'],
          'attributes.1.mapped_name': ['must be email, phone_number, profile.<field>, address.<field> or metadata.<key>'],
        },
      },
    });
    const twice = await system.request('PUT', mappingPath, {
      body: {
        attributes: [
          { name: 'title', mapped_name: 'email' },
          { name: 'userName', mapped_name: 'email' },
        ],
      },
    });
    expect(twice).toMatchObject({ status: 422, body: { errors: { attributes: ['must map each Sesame field at most once'] } } });
  });
});
