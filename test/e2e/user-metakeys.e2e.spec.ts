import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually, notFound, unauthorized } from '../support/identity-fixtures';

const locked = 'is locked: this user metakey is being deleted; try again once its deletion has finished';

describe('User metadata keys over HTTP (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let org: string;
  const metakeys = '/api/v2/tokens/user-metakeys';
  const users = () => `/api/v2/org/${org}/users`;

  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
    org = await createOrganization(system, 'Metakeys Org');
    expect(await createOrganization(system, 'Metakeys Org', {}, production)).toBe(org);
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('creates keys from JSON and from forms, with defaults required false and type string', async () => {
    const json = await system.request('POST', metakeys, { body: { name: 'seats', type: 'integer' } });
    expect(json).toMatchObject({ status: 201, body: { name: 'seats', required: false, type: 'integer' } });
    const form = await system.request('POST', metakeys, { form: 'name=nickname_at_work' });
    expect(form).toMatchObject({ status: 201, body: { name: 'nickname_at_work', required: false, type: 'string' } });
    const flags = await system.request('POST', metakeys, { form: 'name=vip&type=boolean&required=false' });
    expect(flags.body).toEqual({ name: 'vip', required: false, type: 'boolean' });
    expect((await system.request('POST', metakeys, { body: { name: 'ratio', type: 'float' } })).status).toBe(201);
  });

  it.each([
    ['no name', {}, { name: ["can't be blank"] }],
    ['a blank name', { name: ' ' }, { name: ["can't be blank"] }],
    [
      'a name with spaces',
      { name: 'two words' },
      { name: ['must start with a letter and hold only letters, digits and underscores (64 at most)'] },
    ],
    ['an unknown type', { name: 'colour', type: 'colour' }, { type: ['must be one of: string, integer, boolean, float'] }],
    ['a taken name', { name: 'seats' }, { name: ['has already been taken'] }],
  ])('refuses %s with 422', async (_case, body, errors) => {
    expect(await system.request('POST', metakeys, { body })).toMatchObject({ status: 422, body: { errors } });
  });

  it('lists the keys of the environment of the API key only, with paging', async () => {
    expect((await system.request('POST', metakeys, { key: production, body: { name: 'prod_only' } })).status).toBe(201);
    const sandbox = (await system.request('GET', `${metakeys}?per_page=100`)).body;
    expect(sandbox.data.map((key: { name: string }) => key.name)).toEqual(['seats', 'nickname_at_work', 'vip', 'ratio']);
    const page = await system.request('GET', `${metakeys}?per_page=3&page=2`);
    expect(page.body).toEqual({
      data: [{ name: 'ratio', required: false, type: 'float' }],
      pagination: { current_page: 2, current_pages: 2, next_page: null, prev_page: 1, per_page: 3, total_pages: 2 },
      total: 4,
    });
    const prod = (await system.request('GET', metakeys, { key: production })).body;
    expect(prod.data).toEqual([{ name: 'prod_only', required: false, type: 'string' }]);
    // The same name may exist in both environments.
    expect((await system.request('POST', metakeys, { key: production, body: { name: 'seats' } })).status).toBe(201);
  });

  it('checks metadata values against the key type, converting form values', async () => {
    const user = (
      await system.request('POST', users(), { body: { email: 'typed@example.com', metadata: { seats: 3, free_text: 42 } } })
    ).body;
    expect(user.metadata).toEqual({ seats: 3, free_text: 42 });
    const form = await system.request('PUT', `${users()}/${user.id}/add-metadata`, { form: 'key=seats&value=12' });
    expect(form.body.metadata.seats).toBe(12);
    const flag = await system.request('PUT', `${users()}/${user.id}/add-metadata`, { form: 'key=vip&value=true' });
    expect(flag.body.metadata.vip).toBe(true);
    const ratio = await system.request('PUT', `${users()}/${user.id}/add-metadata`, { form: 'key=ratio&value=0.5' });
    expect(ratio.body.metadata.ratio).toBe(0.5);
    for (const [key, value, message] of [
      ['seats', 'twelve', 'must be an integer'],
      ['seats', 1.5, 'must be an integer'],
      ['vip', 'yes', 'must be a boolean'],
      ['ratio', 'half', 'must be a number'],
      ['nickname_at_work', 7, 'must be a string'],
    ] as const)
      expect(await system.request('PUT', `${users()}/${user.id}/add-metadata`, { body: { key, value } })).toMatchObject({
        status: 422,
        body: { errors: { [`metadata.${key}`]: [message] } },
      });
    expect(
      await system.request('POST', users(), { body: { email: 'wrong.type@example.com', metadata: { seats: 'many' } } }),
    ).toMatchObject({
      status: 422,
      body: { errors: { 'metadata.seats': ['must be an integer'] } },
    });
  });

  it('requires a required key on users created after it exists, not on earlier ones', async () => {
    const earlier = (await system.request('POST', users(), { body: { email: 'earlier@example.com' } })).body;
    expect((await system.request('POST', metakeys, { body: { name: 'cost_center', required: true } })).status).toBe(201);
    expect(await system.request('POST', users(), { body: { email: 'later@example.com' } })).toMatchObject({
      status: 422,
      body: { errors: { 'metadata.cost_center': ["can't be blank"] } },
    });
    const later = await system.request('POST', users(), { form: 'email=later%40example.com&metadata[cost_center]=R%26D' });
    expect(later).toMatchObject({ status: 201, body: { metadata: { cost_center: 'R&D' } } });
    expect(
      (
        await system.request('PUT', `${users()}/${earlier.id}`, {
          body: { email: 'earlier@example.com', profile: { nickname: 'e' } },
        })
      ).status,
    ).toBe(200);
    expect(
      await system.request('PUT', `${users()}/${later.body.id}/remove-metadata`, { body: { key: 'cost_center' } }),
    ).toMatchObject({
      status: 422,
      body: { errors: { key: ['is a required user metakey and cannot be removed'] } },
    });
    // Production keys have their own rules.
    expect((await system.request('POST', users(), { key: production, body: { email: 'later@example.com' } })).status).toBe(201);
  });

  describe('deletion', () => {
    const holders: string[] = [];
    beforeAll(async () => {
      expect((await system.request('POST', metakeys, { body: { name: 'legacy', type: 'integer' } })).status).toBe(201);
      for (let i = 0; i < 40; i++) {
        const created = await system.request('POST', users(), {
          body: { email: `holder${i}@example.com`, metadata: { legacy: i, cost_center: 'ops' } },
        });
        expect(created.status).toBe(201);
        holders.push(created.body.id);
      }
    });

    it('locks the key while its values are removed: a second delete and writes to it are refused', async () => {
      const first = await system.request('DELETE', `${metakeys}?name=legacy`);
      expect(first).toEqual(
        expect.objectContaining({
          status: 200,
          body: { deleted: true, resource: { name: 'legacy', required: false, type: 'integer' } },
        }),
      );
      const [second, write, recreate] = await Promise.all([
        system.request('DELETE', metakeys, { body: { name: 'legacy' } }),
        system.request('PUT', `${users()}/${holders[0]}/add-metadata`, { body: { key: 'legacy', value: 1 } }),
        system.request('POST', metakeys, { body: { name: 'legacy' } }),
      ]);
      expect(second).toMatchObject({ status: 422, body: { errors: { name: [locked] } } });
      expect(write).toMatchObject({ status: 422, body: { errors: { 'metadata.legacy': [locked] } } });
      expect(recreate).toMatchObject({ status: 422, body: { errors: { name: [locked] } } });
    });

    it('then removes the values from every user and the key itself', async () => {
      await eventually(async () => (await system.request('DELETE', `${metakeys}?name=legacy`)).status === 404);
      const list = (await system.request('GET', `${metakeys}?per_page=100`)).body.data.map((key: { name: string }) => key.name);
      expect(list).not.toContain('legacy');
      for (const id of holders.slice(0, 5)) {
        const user = (await system.request('GET', `${users()}/${id}`)).body;
        expect(user.metadata).toEqual({ cost_center: 'ops' });
      }
      const remaining = (await system.request('GET', `${users()}?per_page=100`)).body.data.filter(
        (user: { metadata: object }) => 'legacy' in user.metadata,
      );
      expect(remaining).toEqual([]);
      expect(await system.request('POST', metakeys, { body: { name: 'legacy', type: 'string' } })).toMatchObject({
        status: 201,
        body: { name: 'legacy', type: 'string' },
      });
    });

    it('answers 422 without a name and 404 for an unknown key', async () => {
      expect(await system.request('DELETE', metakeys)).toMatchObject({
        status: 422,
        body: { errors: { name: ["can't be blank"] } },
      });
      expect(await system.request('DELETE', `${metakeys}?name=never_existed`)).toMatchObject({ status: 404, body: notFound });
      expect(await system.request('DELETE', `${metakeys}?name=prod_only`)).toMatchObject({ status: 404, body: notFound });
    });
  });

  it('checks privileges', async () => {
    const reader = system.createApiKey('sandbox', ['tokens:read']);
    expect((await system.request('GET', metakeys, { key: reader })).status).toBe(200);
    expect(await system.request('POST', metakeys, { key: reader, body: { name: 'nope' } })).toMatchObject({
      status: 401,
      body: unauthorized,
    });
  });
});
