import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually, notFound } from '../support/identity-fixtures';
import { TestIdp } from '../support/saml-idp';
import { postToAcs } from '../support/saml-browser';

const callback = 'https://app.plan.example/auth/callback';
const limitReached = {
  error: {
    type: 'user_limit_reached',
    message: "The plan's limit on the number of users is reached: delete users or raise the limit before creating more",
    doc_urls: ['http://localhost:8000/how-to-use-api-key#plan-limit-on-the-number-of-users'],
  },
};
const scimLimitReached = {
  schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
  status: '403',
  detail: "The plan's limit on the number of users is reached: delete users or raise the limit before creating more",
};

/**
 * The plan's limit on the number of users (SPEC.md section 1): sandbox holds 6 users in all, the
 * organization `capped-org` 2 of them, production 1; every way of creating a user is refused over it.
 */
describe('Plan limit on the number of users (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let capped: string;
  let open: string;
  const users = (domain: string) => `/api/v2/org/${domain}/users`;
  const createUser = (domain: string, email: string, key?: ApiKey) =>
    system.request('POST', users(domain), { body: { email }, ...(key ? { key } : {}) });
  const status = async (query = '', key?: ApiKey) => system.request('GET', `/api/v2/user-limit${query}`, key ? { key } : {});

  beforeAll(async () => {
    system = await System.start({
      env: {
        SESAME_USER_LIMIT_SANDBOX: '6',
        SESAME_USER_LIMIT_PRODUCTION: '1',
        SESAME_USER_LIMIT_ORGANIZATIONS: 'capped-org=2, other.example=50',
      },
    });
    production = system.createApiKey('production');
    capped = await createOrganization(system, 'Capped Org');
    open = await createOrganization(system, 'Open Org');
    expect(await createOrganization(system, 'Open Org', {}, production)).toBe(open);
    expect(capped).toBe('capped-org');
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('tells the limit, the users and the places left of the environment, and of an organization', async () => {
    expect(await status()).toMatchObject({
      status: 200,
      body: { environment: 'sandbox', users: { limit: 6, used: 0, remaining: 6 }, organization: null },
    });
    expect((await status(`?org_domain=${capped}`)).body).toEqual({
      environment: 'sandbox',
      users: { limit: 6, used: 0, remaining: 6 },
      organization: { domain: capped, limit: 2, used: 0, remaining: 2 },
    });
    expect((await status(`?org_domain=${open}`)).body.organization).toEqual({
      domain: open,
      limit: null,
      used: 0,
      remaining: null,
    });
    expect(await status('?org_domain=no-such-org')).toMatchObject({ status: 404, body: notFound });
  });

  it("refuses a user over the organization's own limit with 403 user_limit_reached, and a deletion frees a place", async () => {
    expect((await createUser(capped, 'a@capped.test')).status).toBe(201);
    const second = await createUser(capped, 'b@capped.test');
    expect(second.status).toBe(201);
    expect(await createUser(capped, 'c@capped.test')).toEqual(expect.objectContaining({ status: 403, body: limitReached }));
    expect((await system.request('GET', `${users(capped)}/c@capped.test`)).status).toBe(404);
    expect((await status(`?org_domain=${capped}`)).body).toEqual({
      environment: 'sandbox',
      users: { limit: 6, used: 2, remaining: 4 },
      organization: { domain: capped, limit: 2, used: 2, remaining: 0 },
    });

    expect((await system.request('DELETE', `${users(capped)}/${second.body.id}`)).status).toBe(200);
    expect((await status(`?org_domain=${capped}`)).body.organization).toMatchObject({ used: 1, remaining: 1 });
    expect((await createUser(capped, 'c@capped.test')).status).toBe(201);
  });

  it('a refused creation (taken email) leaves nothing counted', async () => {
    expect(await createUser(open, 'dup@open.test')).toMatchObject({ status: 201 });
    expect(await createUser(open, 'DUP@open.test')).toMatchObject({
      status: 422,
      body: { errors: { email: ['has already been taken'] } },
    });
    expect((await status()).body.users).toEqual({ limit: 6, used: 3, remaining: 3 });
  });

  it('lets exactly one of two creations racing for the last place in', async () => {
    expect((await createUser(open, 'd@open.test')).status).toBe(201);
    expect((await createUser(open, 'e@open.test')).status).toBe(201);
    const race = await Promise.all([createUser(open, 'f@open.test'), createUser(open, 'g@open.test')]);
    expect(race.map((answer) => answer.status).sort()).toEqual([201, 403]);
    expect(race.find((answer) => answer.status === 403)?.body).toEqual(limitReached);
    expect((await status()).body.users).toEqual({ limit: 6, used: 6, remaining: 0 });
    const listed = await system.request('GET', `${users(open)}?per_page=50`);
    expect(listed.body.data.map((user: { email: string }) => user.email).sort()).toEqual(
      ['d@open.test', 'dup@open.test', 'e@open.test', race[0]!.status === 201 ? 'f@open.test' : 'g@open.test'].sort(),
    );
  });

  it('refuses SCIM provisioning over the limit with a 403 SCIM error (RFC 7644 section 3.12); SCIM deletion frees a place', async () => {
    const sync = await system.request('POST', `/api/v2/org/${open}/directory-sync`, { body: { provider_type: 'okta' } });
    expect(sync.status).toBe(201);
    const scim = (method: string, path: string, body?: unknown) =>
      system.request(method, `${new URL(sync.body.scim_base_url).pathname}${path}`, {
        token: sync.body.auth_secret_token.value,
        headers: { 'content-type': 'application/scim+json' },
        ...(body === undefined ? {} : { body }),
      });
    const scimUser = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'scim@open.test',
      emails: [{ value: 'scim@open.test', type: 'work', primary: true }],
      active: true,
    };
    const refused = await scim('POST', '/Users', scimUser);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(scimLimitReached);
    expect(refused.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect((await system.request('GET', `${users(open)}/scim@open.test`)).status).toBe(404);

    const e = await system.request('GET', `${users(open)}/e@open.test`);
    expect((await system.request('DELETE', `${users(open)}/${e.body.id}`)).status).toBe(200);
    const provisioned = await scim('POST', '/Users', scimUser);
    expect(provisioned.status).toBe(201);
    expect((await system.request('GET', `${users(open)}/scim@open.test`)).status).toBe(200);
    expect((await status()).body.users).toEqual({ limit: 6, used: 6, remaining: 0 });
    expect((await scim('DELETE', `/Users/${provisioned.body.id}`)).status).toBe(204);
    expect((await status()).body.users).toEqual({ limit: 6, used: 5, remaining: 1 });
    expect((await createUser(open, 'e@open.test')).status).toBe(201);
  });

  it('refuses a magic link that would create a user over the limit, and still signs in a known user', async () => {
    expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
    expect((await system.request('POST', `/api/v2/org/${open}/magic-link-connection`, { body: {} })).status).toBe(201);
    const challenge = (email: string) =>
      system.request('POST', '/api/v2/magic-link-challenge', {
        body: { email, org_domain: open, redirect_uri: callback, find_or_create_user: true },
      });
    expect(await challenge('newcomer@open.test')).toMatchObject({ status: 403, body: limitReached });
    expect((await system.request('GET', `${users(open)}/newcomer@open.test`)).status).toBe(404);
    expect(await challenge('d@open.test')).toMatchObject({ status: 201, body: { code: expect.any(String) } });

    const d = await system.request('GET', `${users(open)}/d@open.test`);
    expect((await system.request('DELETE', `${users(open)}/${d.body.id}`)).status).toBe(200);
    expect(await challenge('newcomer@open.test')).toMatchObject({ status: 201, body: { code: expect.any(String) } });
    expect((await status()).body.users).toEqual({ limit: 6, used: 6, remaining: 0 });
  });

  it('refuses a password sign-up (a password for a new email) over the limit', async () => {
    expect((await system.request('POST', `/api/v2/org/${open}/password-connection`, { body: {} })).status).toBe(201);
    const plain_text = 'a long enough passphrase 42';
    const signUp = await system.request('POST', '/api/v2/password', {
      body: { org_domain: open, user_email: 'signup@open.test', plain_text },
    });
    expect(signUp).toMatchObject({ status: 403, body: limitReached });
    expect((await system.request('GET', `${users(open)}/signup@open.test`)).status).toBe(404);
    const known = await system.request('POST', '/api/v2/password', {
      body: { org_domain: open, user_email: 'e@open.test', plain_text },
    });
    expect(known).toMatchObject({ status: 201, body: { user_id: expect.any(String) } });
  });

  it('refuses a relay that would create the account in the partner organization over the limit', async () => {
    const partner = await createOrganization(system, 'Partner Org');
    const relay = await system.request('POST', '/api/v2/relays', {
      body: {
        partner_domain: partner,
        partner_redirect_uri: 'https://partner.plan.example/callback',
        jit: true,
        source_organizations: [open],
      },
    });
    expect(relay.status).toBe(201);
    const challenge = await system.request('POST', '/api/v2/magic-link-challenge', {
      body: { email: 'e@open.test', org_domain: open, redirect_uri: callback },
    });
    expect(challenge.status).toBe(201);
    const tokens = await system.request('POST', '/oauth/token', {
      token: null,
      body: {
        grant_type: 'authorization_code',
        code: challenge.body.code,
        client_id: system.apiKey.clientId,
        client_secret: system.apiKey.clientSecret,
      },
    });
    expect(tokens.status).toBe(200);
    const request = await system.request('POST', `/api/v2/relays/${relay.body.id}/request`, {
      body: { access_token: tokens.body.access_token },
    });
    expect(request).toMatchObject({ status: 403, body: limitReached });
    expect((await system.request('GET', `${users(partner)}/e@open.test`)).status).toBe(404);
  });

  it('refuses an SSO just-in-time user over the limit: the sign-in ends with the refusal, logged', async () => {
    const saml = await createOrganization(system, 'Saml Org');
    const idp = await TestIdp.create();
    const created = await system.request('POST', `/api/v2/org/${saml}/sso-connection`, {
      body: { provider_type: 'okta', metadata: idp.metadata(), allow_idp_initiated: true },
    });
    expect(created.status).toBe(201);
    const sp = { entity_id: created.body.saml_config.entity_id, acs_url: created.body.saml_config.acs_url };
    const signIn = (nameId: string) => postToAcs(sp.acs_url, idp.loginResponse(sp, { nameId, attributes: { email: nameId } }));
    const params = (location: string | null) => Object.fromEntries(new URL(location as string).searchParams.entries());

    const refused = await signIn('jit@saml.test');
    expect(refused.status).toBe(302);
    expect(params(refused.location)).toMatchObject({
      error: 'access_denied',
      error_description: "No more users can be created: the plan's limit on the number of users is reached.",
    });
    const line = `"correlationId":"${refused.correlationId}","reason":"user_limit_reached"`;
    await eventually(async () => readFileSync(join(system.logDir, 'auth-methods.log'), 'utf8').includes(line));
    expect((await system.request('GET', `${users(saml)}/jit@saml.test`)).status).toBe(404);

    const h = await system.request('GET', `${users(open)}/newcomer@open.test`);
    expect((await system.request('DELETE', `${users(open)}/${h.body.id}`)).status).toBe(200);
    const admitted = await signIn('jit@saml.test');
    expect(params(admitted.location)).toMatchObject({ code: expect.any(String) });
    expect((await system.request('GET', `${users(saml)}/jit@saml.test`)).status).toBe(200);
    expect((await status()).body.users).toEqual({ limit: 6, used: 6, remaining: 0 });
  });

  it('counts production on its own', async () => {
    expect((await status('', production)).body).toEqual({
      environment: 'production',
      users: { limit: 1, used: 0, remaining: 1 },
      organization: null,
    });
    expect((await createUser(open, 'prod@open.test', production)).status).toBe(201);
    expect(await createUser(open, 'prod2@open.test', production)).toMatchObject({ status: 403, body: limitReached });
    expect((await status()).body.users).toEqual({ limit: 6, used: 6, remaining: 0 });
  });

  it("gives back the places of an organization's users when the organization is deleted", async () => {
    expect((await system.request('DELETE', `/api/v2/organizations/${capped}`)).status).toBe(200);
    await eventually(async () => (await status()).body.users.used === 4);
    expect((await status()).body.users).toEqual({ limit: 6, used: 4, remaining: 2 });
    expect((await createUser(open, 'h@open.test')).status).toBe(201);
  });
});
