import { pendingStatus, readyOrganization, readyStatus } from '../support/identity-fixtures';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';

const taken = { errors: { tenant_id: ['has already been taken'] } };
const characters = 'must contain only letters, digits, dots, underscores, colons and dashes';

/**
 * An organization's `tenant_id` (issue 19, SPEC.md section 8 "tenant_id taken"): the vendor's own
 * identifier of its customer, optional, answered on every organization body, unique among the
 * organizations of one environment (a reservation in the event store, so concurrent creates
 * cannot both take it), changeable by PUT and given back when changed, removed or deleted.
 */
describe('Organization tenant_id (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
  });
  afterAll(async () => {
    await system?.stop();
  });

  const create = (body: Record<string, unknown>, key?: ApiKey) =>
    system.request('POST', '/api/v2/organizations', { body, ...(key ? { key } : {}) });
  const update = (domain: string, body: Record<string, unknown>) =>
    system.request('PUT', `/api/v2/organizations/${domain}`, { body });
  const total = async () => (await system.request('GET', '/api/v2/organizations?per_page=100')).body.total as number;

  it('answers the tenant_id on create, get, list, update and delete, and null when there is none', async () => {
    const created = await create({ name: 'Tenant Shown', tenant_id: 'crm:Acct_42.eu-1' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      __type__: 'Organization',
      __domain__: 'tenant-shown',
      __environment__: 'sandbox',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Tenant Shown',
      domain: 'tenant-shown',
      tenant_id: 'crm:Acct_42.eu-1',
      allowed_email_domains: [],
      allowed_authn_connections: ['sso', 'password', 'magic_link', 'totp'],
      color: null,
      icon_logo_url: null,
      inline_logo_url: null,
      locale: null,
      timezone: null,
      environments: [{ name: 'sandbox', status: 'up' }],
      status: pendingStatus,
      inserted_at: expect.any(String),
      updated_at: created.body.inserted_at,
    });
    const ready = { ...created.body, status: readyStatus };
    expect(await readyOrganization(system, 'tenant-shown')).toEqual(ready);
    const list = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
    expect(list.data.find((o: { domain: string }) => o.domain === 'tenant-shown')).toEqual(ready);
    const renamed = await update('tenant-shown', { name: 'Tenant Still Shown' });
    expect(renamed).toMatchObject({ status: 200, body: { tenant_id: 'crm:Acct_42.eu-1', name: 'Tenant Still Shown' } });

    const none = await create({ name: 'Tenant None' });
    expect(none).toMatchObject({ status: 201, body: { domain: 'tenant-none', tenant_id: null } });
    const explicitNull = await create({ name: 'Tenant Null', tenant_id: null });
    expect(explicitNull).toMatchObject({ status: 201, body: { domain: 'tenant-null', tenant_id: null } });
    const form = await system.request('POST', '/api/v2/organizations', { form: 'name=Tenant+Form&tenant_id=form-7' });
    expect(form).toMatchObject({ status: 201, body: { domain: 'tenant-form', tenant_id: 'form-7' } });
  });

  it.each([
    ['an empty tenant_id', '', ["can't be blank"]],
    ['a tenant_id with a space', 'acme 42', [characters]],
    ['a tenant_id with a slash', 'acme/42', [characters]],
    ['a tenant_id with accents', 'café-42', [characters]],
    ['a tenant_id over 128 characters', 'a'.repeat(129), ['is too long (maximum is 128 characters)']],
    ['a tenant_id that is not a string', 42, ['must be a string']],
  ])('refuses %s with 422 on tenant_id and writes nothing', async (_case, tenantId, messages) => {
    const before = await total();
    const { status, body } = await create({ name: 'Tenant Invalid', tenant_id: tenantId });
    expect(status).toBe(422);
    expect(body).toEqual({ errors: { tenant_id: messages } });
    expect(await total()).toBe(before);
  });

  it('accepts a tenant_id of exactly 128 characters', async () => {
    const longest = 'b'.repeat(128);
    expect(await create({ name: 'Tenant Longest', tenant_id: longest })).toMatchObject({
      status: 201,
      body: { tenant_id: longest },
    });
  });

  it('refuses a tenant_id another organization of the environment holds, exactly as sent (case matters)', async () => {
    expect((await create({ name: 'Tenant Holder', tenant_id: 'cus-100' })).status).toBe(201);
    const before = await total();
    const { status, body } = await create({ name: 'Tenant Copycat', tenant_id: 'cus-100' });
    expect(status).toBe(422);
    expect(body).toEqual(taken);
    expect(await total()).toBe(before);
    expect((await system.request('GET', '/api/v2/organizations/tenant-copycat')).status).toBe(404);
    expect(await create({ name: 'Tenant Other Case', tenant_id: 'CUS-100' })).toMatchObject({
      status: 201,
      body: { tenant_id: 'CUS-100' },
    });
  });

  it('lets the same tenant_id exist once in sandbox and once in production', async () => {
    expect((await create({ name: 'Tenant Sandbox', tenant_id: 'cus-200' })).status).toBe(201);
    const inProduction = await create({ name: 'Tenant Production', tenant_id: 'cus-200' }, production);
    expect(inProduction).toMatchObject({
      status: 201,
      body: { domain: 'tenant-production', __environment__: 'production', tenant_id: 'cus-200' },
    });
    expect(await create({ name: 'Tenant Production Two', tenant_id: 'cus-200' }, production)).toMatchObject({
      status: 422,
      body: taken,
    });
    expect(await create({ name: 'Tenant Sandbox Two', tenant_id: 'cus-200' })).toMatchObject({ status: 422, body: taken });
  });

  it('lets exactly one of concurrent creates with one tenant_id succeed', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, n) => create({ name: `Tenant Race ${n}`, tenant_id: 'cus-race' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201))
      expect(answer).toEqual(expect.objectContaining({ status: 422, body: taken }));
    const list = (await system.request('GET', '/api/v2/organizations?per_page=100')).body;
    expect(list.data.filter((o: { tenant_id: string | null }) => o.tenant_id === 'cus-race')).toHaveLength(1);
  });

  it('keeps the tenant_id taken when concurrent creates of one organization race', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => create({ name: 'Tenant Same Race', tenant_id: 'cus-same-race' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) expect(answer.status).toBe(422);
    expect(await create({ name: 'Tenant After Race', tenant_id: 'cus-same-race' })).toMatchObject({ status: 422, body: taken });
  });

  it('releases the tenant_id when its organization is deleted', async () => {
    expect((await create({ name: 'Tenant Deleted', tenant_id: 'cus-300' })).status).toBe(201);
    const deleted = await system.request('DELETE', '/api/v2/organizations/tenant-deleted');
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true, resource: { tenant_id: 'cus-300' } } });
    expect(await create({ name: 'Tenant Successor', tenant_id: 'cus-300' })).toMatchObject({
      status: 201,
      body: { domain: 'tenant-successor', tenant_id: 'cus-300' },
    });
  });

  it('sets, changes and removes the tenant_id by PUT, releasing the previous one and refusing a taken one', async () => {
    expect((await create({ name: 'Tenant Mover' })).status).toBe(201);
    expect((await create({ name: 'Tenant Neighbour', tenant_id: 'cus-400' })).status).toBe(201);

    const refused = await update('tenant-mover', { tenant_id: 'cus-400', color: '#123456' });
    expect(refused).toMatchObject({ status: 422, body: taken });
    expect((await system.request('GET', '/api/v2/organizations/tenant-mover')).body).toMatchObject({
      tenant_id: null,
      color: null,
    });

    expect(await update('tenant-mover', { tenant_id: 'cus-401' })).toMatchObject({ status: 200, body: { tenant_id: 'cus-401' } });
    expect(await update('tenant-mover', { tenant_id: 'cus-401' })).toMatchObject({ status: 200, body: { tenant_id: 'cus-401' } });
    expect(await update('tenant-mover', { tenant_id: 'cus-402' })).toMatchObject({ status: 200, body: { tenant_id: 'cus-402' } });
    expect(await create({ name: 'Tenant Takes 401', tenant_id: 'cus-401' })).toMatchObject({ status: 201 });
    expect(await create({ name: 'Tenant Wants 402', tenant_id: 'cus-402' })).toMatchObject({ status: 422, body: taken });

    expect(await update('tenant-mover', { tenant_id: null })).toMatchObject({ status: 200, body: { tenant_id: null } });
    expect(await create({ name: 'Tenant Wants 402', tenant_id: 'cus-402' })).toMatchObject({
      status: 201,
      body: { tenant_id: 'cus-402' },
    });

    expect(await update('tenant-mover', { tenant_id: 'bad id' })).toEqual(
      expect.objectContaining({ status: 422, body: { errors: { tenant_id: [characters] } } }),
    );
  });
});
