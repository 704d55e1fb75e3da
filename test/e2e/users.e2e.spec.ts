import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';

describe('Users over HTTP (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let production: ApiKey;
  const users = (domain = org) => `/api/v2/org/${domain}/users`;

  beforeAll(async () => {
    system = await System.start();
    org = await createOrganization(system, 'Users Org');
    production = system.createApiKey('production');
    // Production has its own organization of the same domain.
    expect(await createOrganization(system, 'Users Org', {}, production)).toBe(org);
  });
  afterAll(async () => {
    await system?.stop();
  });

  describe('create', () => {
    it('creates a user from JSON with every field', async () => {
      const { status, body } = await system.request('POST', users(), {
        body: {
          email: 'Ada.Lovelace@Example.com',
          email_verified: true,
          phone_number: '+33 6 12 34 56 78',
          phone_number_verified: true,
          phone_numbers: [{ value: '+44 20 7946 0958' }, { value: '+14155552671', primary: true }],
          address: { country: 'FR', locality: 'Paris', postal_code: '75001', street_address: '1 rue de Rivoli' },
          profile: {
            birthdate: '1815-12-10',
            given_name: 'Ada',
            family_name: 'Lovelace',
            gender: 'female',
            locale: 'en-GB',
            nickname: 'ada',
            picture: 'https://example.com/ada.png',
            preferred_username: 'ada.l',
            website: 'https://ada.example.com',
            zoneinfo: 'Europe/London',
          },
          metadata: { team: 'analytics' },
        },
      });
      expect([status, body.errors]).toEqual([201, undefined]);
      expect(body).toEqual({
        __type__: 'User',
        __domain__: org,
        __environment__: 'sandbox',
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        active: true,
        email: 'Ada.Lovelace@Example.com',
        email_verified: true,
        phone_number: '+33612345678',
        phone_number_verified: true,
        phone_numbers: [
          { phone_country_code: '44', phone_national_number: '2079460958', primary: false, value: '+442079460958' },
          { phone_country_code: '1', phone_national_number: '4155552671', primary: true, value: '+14155552671' },
        ],
        address: {
          country: 'FR',
          formatted: null,
          locality: 'Paris',
          postal_code: '75001',
          region: null,
          street_address: '1 rue de Rivoli',
        },
        profile: {
          birthdate: '1815-12-10',
          family_name: 'Lovelace',
          given_name: 'Ada',
          gender: 'female',
          locale: 'en-GB',
          nickname: 'ada',
          picture: 'https://example.com/ada.png',
          preferred_username: 'ada.l',
          website: 'https://ada.example.com',
          zoneinfo: 'Europe/London',
        },
        identities: [],
        metadata: { team: 'analytics' },
        meta_data: { team: 'analytics' },
        inserted_at: expect.any(String),
        updated_at: body.inserted_at,
      });
      expect((await system.request('GET', `${users()}/${body.id}`)).body).toEqual(body);
    });

    it('creates a user from a form-encoded body with bracket notation', async () => {
      const { status, body } = await system.request('POST', users(), {
        form: [
          'email=grace%40example.com',
          'email_verified=true',
          'profile[given_name]=Grace',
          'profile[family_name]=Hopper',
          'profile[gender]=',
          'address[locality]=Arlington',
          'phone_numbers[0][value]=%2B33612345679',
          'metadata[rank]=admiral',
        ].join('&'),
      });
      expect([status, body.errors]).toEqual([201, undefined]);
      expect(body).toMatchObject({
        email: 'grace@example.com',
        email_verified: true,
        profile: { given_name: 'Grace', family_name: 'Hopper', gender: null },
        address: { locality: 'Arlington' },
        phone_numbers: [{ value: '+33612345679', primary: true, phone_country_code: '33', phone_national_number: '612345679' }],
        metadata: { rank: 'admiral' },
      });
    });

    // The request shapes Cryptr's SDKs send: type markers in nested objects, arrays of objects without an index.
    it('creates a user from the SDK form shape: __type__ markers and phone_numbers[][…] without an index', async () => {
      const { status, body } = await system.request('POST', users(), {
        form: [
          '__type__=User',
          'email=sdk-form%40example.com',
          'profile[__type__]=Profile',
          'profile[given_name]=Alan',
          'address[__type__]=Address',
          'address[locality]=Wilmslow',
          'phone_numbers[][__type__]=PhoneNumber',
          'phone_numbers[][value]=%2B33612345670',
          'phone_numbers[][primary]=false',
          'phone_numbers[][value]=%2B33612345671',
          'phone_numbers[][primary]=true',
        ].join('&'),
      });
      expect([status, body.errors]).toEqual([201, undefined]);
      expect(body).toMatchObject({
        email: 'sdk-form@example.com',
        profile: { given_name: 'Alan' },
        address: { locality: 'Wilmslow' },
        phone_numbers: [
          { value: '+33612345670', primary: false },
          { value: '+33612345671', primary: true },
        ],
      });
      expect(JSON.stringify(body.profile)).not.toContain('Profile');
    });

    // SPEC.md section 3: the user's metadata is "also named meta_data in one reading"; Cryptr's SDKs send and read meta_data.
    it('reads meta_data as metadata from JSON and forms, and answers both names', async () => {
      const json = await system.request('POST', users(), {
        body: { email: 'meta-json@example.com', meta_data: { crm_id: 'C-42' } },
      });
      expect([json.status, json.body.errors]).toEqual([201, undefined]);
      expect(json.body).toMatchObject({ metadata: { crm_id: 'C-42' }, meta_data: { crm_id: 'C-42' } });
      expect((await system.request('GET', `${users()}/${json.body.id}`)).body).toEqual(json.body);

      const form = await system.request('POST', users(), {
        form: 'email=meta-form%40example.com&meta_data[__type__]=Metadata&meta_data[crm_id]=C-43&meta_data[seats]=12',
      });
      expect([form.status, form.body.errors]).toEqual([201, undefined]);
      expect(form.body).toMatchObject({ metadata: { crm_id: 'C-43', seats: '12' }, meta_data: { crm_id: 'C-43', seats: '12' } });

      const both = await system.request('POST', users(), {
        body: { email: 'meta-both@example.com', metadata: { crm_id: 'C-44' }, meta_data: { crm_id: 'C-44' } },
      });
      expect([both.status, both.body.metadata, both.body.meta_data]).toEqual([201, { crm_id: 'C-44' }, { crm_id: 'C-44' }]);
    });

    it('creates a user from the SDK JSON shape: __type__ markers in nested objects are ignored', async () => {
      const { status, body } = await system.request('POST', users(), {
        body: {
          __type__: 'User',
          email: 'sdk-json@example.com',
          profile: { __type__: 'Profile', given_name: 'Ada' },
          address: { __type__: 'Address', locality: 'London' },
          phone_numbers: [{ __type__: 'PhoneNumber', value: '+33612345672' }],
        },
      });
      expect([status, body.errors]).toEqual([201, undefined]);
      expect(body).toMatchObject({
        profile: { given_name: 'Ada' },
        address: { locality: 'London' },
        phone_numbers: [{ value: '+33612345672' }],
      });
    });

    it.each([
      ['a missing email', {}, { email: ["can't be blank"] }],
      ['a blank email', { email: '  ' }, { email: ["can't be blank"] }],
      ['a malformed email', { email: 'not-an-email' }, { email: ['invalid_format'] }],
      [
        'a phone number that is not one',
        { email: 'p1@example.com', phone_number: '+33 1' },
        { phone_number: ['not a phone number'] },
      ],
      [
        'letters as a phone number',
        { email: 'p2@example.com', phone_number: 'call me' },
        { phone_number: ['not a phone number'] },
      ],
      [
        'a phone number without country calling code',
        { email: 'p3@example.com', phone_number: '0612345678' },
        { phone_number: ['invalid country calling code'] },
      ],
      [
        'an unknown country calling code',
        { email: 'p4@example.com', phone_number: '+999123456' },
        { phone_number: ['invalid country calling code'] },
      ],
      [
        'a bad number in phone_numbers',
        { email: 'p5@example.com', phone_numbers: [{ value: '12' }] },
        { 'phone_numbers.0.value': ['invalid country calling code'] },
      ],
      [
        'two primary phone numbers',
        {
          email: 'p6@example.com',
          phone_numbers: [
            { value: '+33612345678', primary: true },
            { value: '+33612345679', primary: true },
          ],
        },
        { phone_numbers: ['can have only one primary phone number'] },
      ],
      [
        'a bad birthdate',
        { email: 'b@example.com', profile: { birthdate: '1990-02-30' } },
        { 'profile.birthdate': ['must be a date in the format YYYY-MM-DD'] },
      ],
      [
        'a bad gender',
        { email: 'g@example.com', profile: { gender: 'other' } },
        { 'profile.gender': ['must be male, female or null'] },
      ],
      [
        'an unknown profile field',
        { email: 'u@example.com', profile: { shoe_size: '42' } },
        { profile: ['has unknown fields: shoe_size'] },
      ],
      [
        'a chosen id',
        { email: 'id@example.com', id: '6f1f3c1e-5a43-4d1e-9a55-3f6b7d1c2e4f' },
        { id: ['is assigned by Sesame and cannot be chosen'] },
      ],
      [
        'metadata and a different meta_data',
        { email: 'md@example.com', metadata: { plan: 'gold' }, meta_data: { plan: 'silver' } },
        { meta_data: ['must be the same as metadata when both are given (meta_data is another name for metadata)'] },
      ],
      [
        'a bad key in meta_data',
        { email: 'mk@example.com', meta_data: { '9lives': 'x' } },
        { 'meta_data.9lives': ['is invalid'] },
      ],
    ])('refuses %s with 422 field errors and writes nothing', async (_case, payload, errors) => {
      const before = (await system.request('GET', `${users()}?per_page=100`)).body.total;
      const { status, body } = await system.request('POST', users(), { body: payload });
      expect(status).toBe(422);
      expect(body).toEqual({ errors });
      expect((await system.request('GET', `${users()}?per_page=100`)).body.total).toBe(before);
    });

    it('refuses a taken email, whatever its case, in the same organization and environment', async () => {
      expect((await system.request('POST', users(), { body: { email: 'taken@example.com' } })).status).toBe(201);
      const again = await system.request('POST', users(), { body: { email: 'TAKEN@example.COM' } });
      expect(again).toMatchObject({ status: 422, body: { errors: { email: ['has already been taken'] } } });
    });

    it('lets exactly one of concurrent creations of one email succeed', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => system.request('POST', users(), { body: { email: 'race@example.com' } })),
      );
      expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
      for (const answer of answers.filter((a) => a.status !== 201))
        expect(answer).toMatchObject({ status: 422, body: { errors: { email: ['has already been taken'] } } });
    });

    it('accepts the same email in another organization and in the other environment', async () => {
      const other = await createOrganization(system, 'Users Other Org');
      expect((await system.request('POST', users(other), { body: { email: 'taken@example.com' } })).status).toBe(201);
      expect((await system.request('POST', users(), { key: production, body: { email: 'taken@example.com' } })).status).toBe(201);
    });

    it("refuses an email outside the organization's allowed email domains, saying which are allowed", async () => {
      const strict = await createOrganization(system, 'Strict Domains', { allowed_email_domains: ['acme.com', 'acme.fr'] });
      expect((await system.request('POST', users(strict), { body: { email: 'ok@ACME.fr' } })).status).toBe(201);
      const { status, body } = await system.request('POST', users(strict), { body: { email: 'eve@evil.com' } });
      expect(status).toBe(422);
      expect(body).toEqual({
        errors: { email: ["must belong to one of the organization's allowed email domains (acme.com, acme.fr), not evil.com"] },
      });
    });

    it('answers 404 under an unknown organization', async () => {
      for (const [method, path, body] of [
        ['POST', users('no-such-org'), { email: 'x@example.com' }],
        ['GET', users('no-such-org'), undefined],
        ['GET', `${users('no-such-org')}/x@example.com`, undefined],
      ] as const) {
        const answer = await system.request(method, path, body ? { body } : {});
        expect([method, path, answer.status, answer.body]).toEqual([method, path, 404, notFound]);
      }
    });
  });

  describe('read', () => {
    let ada: { id: string; email: string };
    beforeAll(async () => {
      ada = (await system.request('POST', users(), { body: { email: 'Read.Me@Example.com' } })).body;
    });

    it('gets a user by id and by email, case-insensitively', async () => {
      const byId = await system.request('GET', `${users()}/${ada.id}`);
      expect(byId.status).toBe(200);
      expect(byId.body.email).toBe('Read.Me@Example.com');
      for (const email of ['Read.Me@Example.com', 'read.me@example.com', 'READ.ME%40EXAMPLE.COM'])
        expect((await system.request('GET', `${users()}/${email}`)).body).toEqual(byId.body);
    });

    it('answers 404 for an unknown id or email', async () => {
      for (const key of ['00000000-0000-4000-8000-000000000000', 'nobody@example.com'])
        expect(await system.request('GET', `${users()}/${key}`)).toMatchObject({ status: 404, body: notFound });
    });

    it('lists with paging, oldest first', async () => {
      const all = (await system.request('GET', `${users()}?per_page=100`)).body;
      expect(all.total).toBeGreaterThanOrEqual(4);
      const { status, body } = await system.request('GET', `${users()}?per_page=2&page=2`);
      expect(status).toBe(200);
      expect(body.data.map((user: { id: string }) => user.id)).toEqual(
        all.data.slice(2, 4).map((user: { id: string }) => user.id),
      );
      expect(body.pagination).toEqual({
        current_page: 2,
        current_pages: 2,
        next_page: all.total > 4 ? 3 : null,
        prev_page: 1,
        per_page: 2,
        total_pages: Math.ceil(all.total / 2),
      });
      expect(body.total).toBe(all.total);
      const sorted = [...all.data].sort((a: { inserted_at: string }, b: { inserted_at: string }) =>
        a.inserted_at.localeCompare(b.inserted_at),
      );
      expect(all.data).toEqual(sorted);
    });

    it('hides users of one environment from a key of the other', async () => {
      const prod = await system.request('POST', users(), { key: production, body: { email: 'prod.only@example.com' } });
      expect(prod.body.__environment__).toBe('production');
      expect(await system.request('GET', `${users()}/${prod.body.id}`)).toMatchObject({ status: 404, body: notFound });
      expect(await system.request('GET', `${users()}/prod.only@example.com`)).toMatchObject({ status: 404 });
      expect(await system.request('PUT', `${users()}/${prod.body.id}`, { body: { email: 'x@example.com' } })).toMatchObject({
        status: 404,
      });
      expect(await system.request('DELETE', `${users()}/${prod.body.id}`)).toMatchObject({ status: 404 });
      const sandboxList = (await system.request('GET', `${users()}?per_page=100`)).body.data.map((u: { id: string }) => u.id);
      expect(sandboxList).not.toContain(prod.body.id);
      expect(sandboxList).not.toContain(ada.id === prod.body.id ? 'never' : prod.body.id);
      const prodList = (await system.request('GET', `${users()}?per_page=100`, { key: production })).body;
      expect(prodList.data.map((u: { id: string }) => u.id)).toContain(prod.body.id);
      expect(prodList.data.map((u: { id: string }) => u.id)).not.toContain(ada.id);
      expect((await system.request('GET', `${users()}/${prod.body.id}`, { key: production })).status).toBe(200);
    });

    it('checks privileges', async () => {
      const reader = system.createApiKey('sandbox', ['users:read']);
      expect((await system.request('GET', users(), { key: reader })).status).toBe(200);
      expect(await system.request('POST', users(), { key: reader, body: { email: 'no@example.com' } })).toMatchObject({
        status: 401,
        body: unauthorized,
      });
      expect(await system.request('GET', users(), { token: null })).toMatchObject({ status: 401, body: unauthorized });
    });
  });

  describe('restart in the middle of the suite', () => {
    it('loses nothing when every process is killed and started again', async () => {
      const before = (await system.request('GET', `${users()}?per_page=100`)).body;
      const beforeProduction = (await system.request('GET', `${users()}?per_page=100`, { key: production })).body;
      await system.restart(undefined, 'SIGKILL');
      expect((await system.request('GET', `${users()}?per_page=100`)).body).toEqual(before);
      expect((await system.request('GET', `${users()}?per_page=100`, { key: production })).body).toEqual(beforeProduction);
      // Reservations survive too: a taken email is still taken.
      expect(await system.request('POST', users(), { body: { email: 'taken@example.com' } })).toMatchObject({
        status: 422,
        body: { errors: { email: ['has already been taken'] } },
      });
    });
  });

  describe('update, metadata, delete', () => {
    let user: { id: string; email: string; updated_at: string; inserted_at: string };
    beforeAll(async () => {
      user = (
        await system.request('POST', users(), {
          body: {
            email: 'mutable@example.com',
            profile: { given_name: 'Mu', family_name: 'Table' },
            address: { locality: 'Lyon' },
          },
        })
      ).body;
    });

    it('updates from JSON: fields left out keep their value, profile and address merge', async () => {
      const { status, body } = await system.request('PUT', `${users()}/${user.id}`, {
        body: { email: 'mutable@example.com', profile: { given_name: 'Mutable' }, phone_number: '+33612345670' },
      });
      expect([status, body.errors]).toEqual([200, undefined]);
      expect(body).toMatchObject({
        id: user.id,
        profile: { given_name: 'Mutable', family_name: 'Table' },
        address: { locality: 'Lyon' },
        phone_number: '+33612345670',
        inserted_at: user.inserted_at,
      });
      expect(body.updated_at > user.updated_at).toBe(true);
      expect((await system.request('GET', `${users()}/${user.id}`)).body).toEqual(body);
    });

    it('replaces the metadata from meta_data on update (JSON and form), and refuses a meta_data that contradicts metadata', async () => {
      const json = await system.request('PUT', `${users()}/${user.id}`, {
        body: { email: 'mutable@example.com', meta_data: { tier: 'one', seats: 3 } },
      });
      expect([json.status, json.body.metadata, json.body.meta_data]).toEqual([
        200,
        { tier: 'one', seats: 3 },
        { tier: 'one', seats: 3 },
      ]);
      const form = await system.request('PUT', `${users()}/${user.id}`, {
        form: 'email=mutable%40example.com&meta_data[tier]=two',
      });
      expect([form.status, form.body.metadata, form.body.meta_data]).toEqual([200, { tier: 'two' }, { tier: 'two' }]);
      const refused = await system.request('PUT', `${users()}/${user.id}`, {
        form: 'email=mutable%40example.com&metadata[tier]=three&meta_data[tier]=four',
      });
      expect(refused).toMatchObject({
        status: 422,
        body: {
          errors: { meta_data: ['must be the same as metadata when both are given (meta_data is another name for metadata)'] },
        },
      });
      expect((await system.request('GET', `${users()}/${user.id}`)).body.meta_data).toEqual({ tier: 'two' });
      const cleared = await system.request('PUT', `${users()}/${user.id}`, {
        body: { email: 'mutable@example.com', meta_data: {} },
      });
      expect([cleared.status, cleared.body.metadata, cleared.body.meta_data]).toEqual([200, {}, {}]);
    });

    it('updates from a form with bracket notation', async () => {
      const { status, body } = await system.request('PUT', `${users()}/${user.id}`, {
        form: 'email=mutable%40example.com&profile[family_name]=Tabular&profile[birthdate]=2000-01-31&active=false',
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({
        active: false,
        profile: { given_name: 'Mutable', family_name: 'Tabular', birthdate: '2000-01-31' },
      });
    });

    it('requires the email on update and checks it like on create', async () => {
      for (const [payload, errors] of [
        [{ profile: { nickname: 'x' } }, { email: ["can't be blank"] }],
        [{ email: '' }, { email: ["can't be blank"] }],
        [{ email: 'nope' }, { email: ['invalid_format'] }],
        [{ email: 'taken@example.com' }, { email: ['has already been taken'] }],
        [{ email: 'mutable@example.com', phone_number: '+1' }, { phone_number: ['not a phone number'] }],
      ] as const)
        expect(await system.request('PUT', `${users()}/${user.id}`, { body: payload })).toMatchObject({
          status: 422,
          body: { errors },
        });
    });

    it('refuses to change the id and accepts sending the same one', async () => {
      expect(
        (await system.request('PUT', `${users()}/${user.id}`, { body: { email: 'mutable@example.com', id: user.id } })).status,
      ).toBe(200);
      const { status, body } = await system.request('PUT', `${users()}/${user.id}`, {
        body: { email: 'mutable@example.com', id: '6f1f3c1e-5a43-4d1e-9a55-3f6b7d1c2e4f' },
      });
      expect(status).toBe(422);
      expect(body).toEqual({ errors: { id: ["can't be changed"] } });
    });

    it('changes the email: the new one is taken, the old one is free again', async () => {
      const renamed = await system.request('PUT', `${users()}/${user.id}`, { body: { email: 'renamed@example.com' } });
      expect(renamed.body.email).toBe('renamed@example.com');
      expect((await system.request('GET', `${users()}/renamed@example.com`)).body.id).toBe(user.id);
      expect((await system.request('GET', `${users()}/mutable@example.com`)).status).toBe(404);
      const reuse = await system.request('POST', users(), { body: { email: 'mutable@example.com' } });
      expect(reuse.status).toBe(201);
      expect(await system.request('POST', users(), { body: { email: 'Renamed@example.com' } })).toMatchObject({ status: 422 });
    });

    it('adds and removes metadata values', async () => {
      const added = await system.request('PUT', `${users()}/${user.id}/add-metadata`, { body: { key: 'plan', value: 'gold' } });
      expect(added.status).toBe(200);
      expect(added.body.metadata).toEqual({ plan: 'gold' });
      const form = await system.request('PUT', `${users()}/${user.id}/add-metadata`, { form: 'key=seats&value=12' });
      expect(form.body.metadata).toEqual({ plan: 'gold', seats: '12' });
      const removed = await system.request('PUT', `${users()}/${user.id}/remove-metadata`, { body: { key: 'plan' } });
      expect(removed.body.metadata).toEqual({ seats: '12' });
      expect([added.body.meta_data, form.body.meta_data, removed.body.meta_data]).toEqual([
        { plan: 'gold' },
        { plan: 'gold', seats: '12' },
        { seats: '12' },
      ]);
      expect(await system.request('PUT', `${users()}/${user.id}/add-metadata`, { body: { value: 'x' } })).toMatchObject({
        status: 422,
        body: { errors: { key: ["can't be blank"] } },
      });
      expect(
        await system.request('PUT', `${users()}/${user.id}/add-metadata`, { body: { key: '9lives', value: 'x' } }),
      ).toMatchObject({
        status: 422,
        body: { errors: { key: ['must start with a letter and hold only letters, digits and underscores (64 at most)'] } },
      });
      expect(
        await system.request('PUT', `${users()}/00000000-0000-4000-8000-000000000000/add-metadata`, {
          body: { key: 'a', value: 'b' },
        }),
      ).toMatchObject({ status: 404, body: notFound });
    });

    it('deletes, answering { deleted, resource }, then 404s and frees the email', async () => {
      const { status, body } = await system.request('DELETE', `${users()}/${user.id}`);
      expect(status).toBe(200);
      expect(body).toEqual({
        deleted: true,
        resource: expect.objectContaining({
          id: user.id,
          email: 'renamed@example.com',
          metadata: { seats: '12' },
          meta_data: { seats: '12' },
        }),
      });
      for (const [method, path] of [
        ['GET', `${users()}/${user.id}`],
        ['DELETE', `${users()}/${user.id}`],
        ['PUT', `${users()}/${user.id}/remove-metadata`],
      ] as const)
        expect(await system.request(method, path, method === 'PUT' ? { body: { key: 'seats' } } : {})).toMatchObject({
          status: 404,
          body: notFound,
        });
      expect((await system.request('POST', users(), { body: { email: 'renamed@example.com' } })).status).toBe(201);
    });

    it('answers 422 for an id that is not a uuid', async () => {
      expect(await system.request('PUT', `${users()}/not-a-uuid`, { body: { email: 'a@example.com' } })).toMatchObject({
        status: 422,
        body: { errors: { id: ['is not a valid uuid'] } },
      });
    });
  });

  describe('OpenAPI', () => {
    it('documents every user operation', async () => {
      const { body } = await system.request('GET', '/openapi.json', { token: null });
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining([
          '/api/v2/org/{org_domain}/users',
          '/api/v2/org/{org_domain}/users/{id}',
          '/api/v2/org/{org_domain}/users/{id}/add-metadata',
          '/api/v2/org/{org_domain}/users/{id}/remove-metadata',
        ]),
      );
    });
  });
});
