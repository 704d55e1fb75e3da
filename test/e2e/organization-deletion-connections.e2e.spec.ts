import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { createLogger, subscribeToServiceEvents } from '@sesame/platform';
import type { RecordedEvent, Subscription } from '@sesame/platform';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { TestIdp } from '../support/saml-idp';
import { browserGet, postToAcs } from '../support/saml-browser';

const callback = 'https://app.example.com/callback';

/**
 * Deleting an organization removes its sign-in connections in every environment (auth-methods
 * and directory-sync react to identity's `OrganizationDeleted`): the SSO connection and its
 * pending SAML requests, the directory sync and its SCIM token, the password, magic-link and
 * TOTP connections. An organization created again with the same domain starts clean.
 */
describe('Organization deletion removes its connections (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let idp: TestIdp;
  let org: string;
  let scim: { path: string; token: string };
  let pending: { authorization_url: string; request_id: string };
  let acsUrl: string;
  let nc: NatsConnection;
  const feeds: Subscription[] = [];
  const seen: RecordedEvent[] = [];

  beforeAll(async () => {
    system = await System.start();
    nc = await connect({ servers: system.env.SESAME_NATS_URL as string });
    for (const source of ['auth-methods', 'directory-sync'] as const)
      feeds.push(
        subscribeToServiceEvents({
          nc,
          prefix: system.prefix,
          source,
          consumer: `test-${source}-deletions`,
          onCommit: async (commit) => void seen.push(...commit.events),
          logger: createLogger('test', 'silent'),
        }),
      );
    production = system.createApiKey('production');
    idp = await TestIdp.create();
    org = await createOrganization(system, 'Gone Corp', { allowed_email_domains: ['gone.example'] });
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
    for (const key of [undefined, production]) {
      const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
        body: { provider_type: 'okta', metadata: idp.metadata() },
        ...(key ? { key } : {}),
      });
      expect(created.status).toBe(201);
      if (!key) acsUrl = created.body.saml_config.acs_url;
    }
    const directory = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'okta' } });
    expect(directory.status).toBe(201);
    scim = { path: new URL(directory.body.scim_base_url).pathname, token: directory.body.auth_secret_token.value };
    expect((await system.request('GET', `${scim.path}/Users`, { token: scim.token })).status).toBe(200);
    const settings = [
      ['password-connection', { plain_text_min_length: 12 }],
      ['magic-link-connection', { find_or_create_user: true }],
    ] as const;
    for (const [path, body] of settings)
      expect((await system.request('POST', `/api/v2/org/${org}/${path}`, { body })).status).toBe(201);
    expect((await system.request('PUT', `/api/v2/org/${org}/totp-connection`, { body: { active: true } })).status).toBe(200);
    const challenge = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: callback, org_domain: org },
    });
    expect(challenge.status).toBe(201);
    pending = challenge.body;
  });
  afterAll(async () => {
    await Promise.all(feeds.map((feed) => feed.stop()));
    await nc?.close();
    await system?.stop();
  });
  const deletions = () =>
    seen
      .filter((event) => event.type.endsWith('Deleted'))
      .map((event) => [event.type, (event.data as { environment: string }).environment])
      .sort();

  it('removes the SSO connections of both environments and refuses their pending SAML requests', async () => {
    expect((await system.request('DELETE', `/api/v2/organizations/${org}`)).status).toBe(200);
    await eventually(async () => (await system.request('GET', '/api/v2/sso-connections')).body.total === 0);
    await eventually(async () => (await system.request('GET', '/api/v2/sso-connections', { key: production })).body.total === 0);
    const authorize = await browserGet(pending.authorization_url);
    expect(authorize.status).toBe(400);
    expect(authorize.body).toContain('Single sign-on is not available for this organization.');
    const acs = await postToAcs(acsUrl, Buffer.from('<samlp:Response/>').toString('base64'), pending.request_id);
    expect(acs.status).toBe(400);
    expect(acs.body).toContain('Single sign-on is not available for this organization.');
  });

  it('removes the directory sync: its SCIM token stops working', async () => {
    await eventually(async () => (await system.request('GET', `${scim.path}/Users`, { token: scim.token })).status === 401);
    expect(await system.request('GET', `${scim.path}/Users`, { token: scim.token })).toMatchObject({
      status: 401,
      body: { status: '401', detail: 'Authentication failed: the bearer token is not the one of this directory sync' },
    });
  });

  it('deletes each connection with its own event, once', async () => {
    const expected = [
      ['DirectorySyncDeleted', 'sandbox'],
      ['MagicLinkConnectionDeleted', 'sandbox'],
      ['PasswordConnectionDeleted', 'sandbox'],
      ['SsoConnectionDeleted', 'production'],
      ['SsoConnectionDeleted', 'sandbox'],
      ['TotpConnectionDeleted', 'sandbox'],
    ];
    await eventually(async () => deletions().length >= expected.length);
    expect(deletions()).toEqual(expected);
    expect(seen.find((event) => event.type === 'SsoConnectionDeleted')?.data).toMatchObject({
      organization_domain: org,
      reason: 'organization_deleted',
    });
  });

  it('lets an organization of the same domain start clean', async () => {
    expect(await createOrganization(system, 'Gone Corp', { allowed_email_domains: ['gone.example'] })).toBe(org);
    const notFound = { status: 404 };
    expect(await system.request('GET', `/api/v2/org/${org}/sso-connection`)).toMatchObject(notFound);
    expect(await system.request('GET', `/api/v2/org/${org}/sso-connection`, { key: production })).toMatchObject(notFound);
    expect(await system.request('GET', `/api/v2/org/${org}/directory-sync`)).toMatchObject(notFound);
    expect(await system.request('GET', `/api/v2/org/${org}/magic-link-connection`)).toMatchObject(notFound);
    expect((await system.request('GET', `/api/v2/org/${org}/password-connection`)).body).toMatchObject({
      plain_text_min_length: 8,
    });
    expect((await system.request('GET', `/api/v2/org/${org}/totp-connection`)).body).toMatchObject({ active: false });

    // A new SSO connection of the same name: created anew, and the old pending request is still refused.
    const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
      body: { provider_type: 'okta', metadata: idp.metadata() },
    });
    expect(created.status).toBe(201);
    const authorize = await browserGet(pending.authorization_url);
    expect(authorize.status).toBe(400);
    expect(authorize.body).toContain('Single sign-on is not available for this organization.');
    const fresh = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: callback, org_domain: org },
    });
    expect((await browserGet(fresh.body.authorization_url)).status).toBe(302);
    const directory = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'okta' } });
    expect(directory.status).toBe(201);
    expect(directory.body.id).not.toBe(scim.path.split('/').at(-1));
  });
});
