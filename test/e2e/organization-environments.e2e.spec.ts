import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { createLogger } from '@sesame/platform';
import { subscribeToServiceEvents } from '@sesame/platform/messaging';
import type { RecordedEvent, Subscription } from '@sesame/platform';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { eventually, notFound, readyOrganization } from '../support/identity-fixtures';
import { TestIdp } from '../support/saml-idp';

const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const otherEnvironmentMessage =
  'can only name the environment of this organization, sandbox: an organization belongs to one environment';

/** What an organization holds in one environment, as its own key reads it. */
interface Holdings {
  key: ApiKey;
  domain: string;
  scim: { path: string; token: string };
}

/**
 * Organizations belong to one environment (issue 16, defect 1): the tenant is the environment
 * of the API key and the organization domain. A key of the other environment gets 404 for the
 * organization and everything under it, exactly as if it did not exist; the same domain may
 * exist once per environment, and deleting one leaves the other and everything it holds whole.
 */
describe('Organizations belong to the environment of the key (all processes, real NATS)', () => {
  let system: System;
  let sandbox: ApiKey;
  let production: ApiKey;
  let idp: TestIdp;
  let nc: NatsConnection;
  const feeds: Subscription[] = [];
  const seen: RecordedEvent[] = [];

  beforeAll(async () => {
    system = await System.start();
    sandbox = system.apiKey;
    production = system.createApiKey('production');
    idp = await TestIdp.create();
    nc = await connect(system.natsOptions());
    for (const source of ['identity', 'auth-methods', 'directory-sync'] as const)
      feeds.push(
        subscribeToServiceEvents({
          nc,
          prefix: system.prefix,
          source,
          consumer: `test-${source}-environments`,
          onCommit: async (commit) => void seen.push(...commit.events),
          logger: createLogger('test', 'silent'),
        }),
      );
  });
  afterAll(async () => {
    await Promise.all(feeds.map((feed) => feed.stop()));
    await nc?.close();
    await system?.stop();
  });

  const create = async (key: ApiKey, name: string, emailDomain: string) => {
    const answer = await system.request('POST', '/api/v2/organizations', {
      key,
      body: { name, allowed_email_domains: [emailDomain] },
    });
    expect(answer.status).toBe(201);
    return readyOrganization(system, answer.body.domain, key);
  };

  /** Gives the organization a user, an IT admin, every connection, a directory sync, a SCIM user and group. */
  const populate = async (key: ApiKey, domain: string, emailDomain: string): Promise<Holdings> => {
    const at = (path: string) => `/api/v2/org/${domain}/${path}`;
    const writes = [
      await system.request('POST', at('users'), { key, body: { email: `ada@${emailDomain}` } }),
      await system.request('POST', at('admins'), { key, body: { email: `it@${emailDomain}` } }),
      await system.request('POST', at('sso-connection'), { key, body: { provider_type: 'okta', metadata: idp.metadata() } }),
      await system.request('POST', at('password-connection'), { key, body: { plain_text_min_length: 12 } }),
      await system.request('POST', at('magic-link-connection'), { key, body: { find_or_create_user: true } }),
      await system.request('PUT', at('totp-connection'), { key, body: { active: true } }),
    ];
    expect(writes.map(({ status }) => status)).toEqual([201, 201, 201, 201, 201, 200]);
    const directory = await system.request('POST', at('directory-sync'), { key, body: { provider_type: 'okta' } });
    expect(directory.status).toBe(201);
    const scim = { path: new URL(directory.body.scim_base_url).pathname, token: directory.body.auth_secret_token.value };
    const scimWrite = (path: string, body: unknown) =>
      system.request('POST', `${scim.path}${path}`, {
        token: scim.token,
        headers: { 'content-type': 'application/scim+json' },
        body,
      });
    const scimUser = await scimWrite('/Users', {
      schemas: [userSchema],
      userName: `grace@${emailDomain}`,
      emails: [{ value: `grace@${emailDomain}`, primary: true }],
      active: true,
    });
    expect(scimUser.status).toBe(201);
    const scimGroup = await scimWrite('/Groups', {
      schemas: [groupSchema],
      displayName: 'Engineers',
      members: [{ value: scimUser.body.id }],
    });
    expect(scimGroup.status).toBe(201);
    return { key, domain, scim };
  };

  /** Everything the organization's own key can read of it (SCIM with the directory's token). */
  const snapshot = async ({ key, domain, scim }: Holdings) => {
    const paths = [
      `/api/v2/organizations/${domain}`,
      `/api/v2/org/${domain}/users?per_page=100`,
      `/api/v2/org/${domain}/admins?per_page=100`,
      `/api/v2/org/${domain}/sso-connection`,
      `/api/v2/org/${domain}/password-connection`,
      `/api/v2/org/${domain}/magic-link-connection`,
      `/api/v2/org/${domain}/totp-connection`,
      `/api/v2/org/${domain}/directory-sync`,
    ];
    const answers = await Promise.all(paths.map((path) => system.request('GET', path, { key })));
    const scimAnswers = await Promise.all(
      ['/Users', '/Groups'].map((path) => system.request('GET', `${scim.path}${path}`, { token: scim.token })),
    );
    const all = [...answers, ...scimAnswers].map(({ status, body }) => ({ status, body }));
    for (const answer of all) expect(answer.status).toBe(200);
    return all;
  };

  /** The environment of what an event changed: its data's, else its metadata's (the key that caused it). */
  const environmentOf = (event: RecordedEvent) =>
    (event.data as { environment?: string } | undefined)?.environment ?? event.metadata.environment;
  const removals = (domain: string, environment: string) =>
    seen
      .filter((event) => /(Deleted|Removed)$/.test(event.type) && environmentOf(event) === environment)
      .filter((event) => JSON.stringify(event.data).includes(domain))
      .map((event) => event.type)
      .sort();

  it('creates an organization in the environment of the key only', async () => {
    const created = await create(production, 'Prod Only', 'prod-only.example');
    expect(created).toMatchObject({
      domain: 'prod-only',
      __environment__: 'production',
      environments: [{ name: 'production', status: 'up' }],
    });
    expect(await system.request('GET', '/api/v2/organizations/prod-only', { key: production })).toMatchObject({
      status: 200,
      body: created,
    });
    expect(await system.request('GET', '/api/v2/organizations/prod-only', { key: sandbox })).toEqual(
      expect.objectContaining({ status: 404, body: notFound }),
    );
    const domains = async (key: ApiKey) =>
      (await system.request('GET', '/api/v2/organizations?per_page=100', { key })).body.data.map(
        (organization: { domain: string; __environment__: string }) => [organization.domain, organization.__environment__],
      );
    expect(await domains(production)).toEqual([['prod-only', 'production']]);
    expect(await domains(sandbox)).toEqual([]);
  });

  it('answers 404 to a sandbox key that reads, changes or deletes a production organization, and changes nothing', async () => {
    const vault = await create(production, 'Vault Corp', 'vault.example');
    const holdings = await populate(production, vault.domain, 'vault.example');
    const before = await snapshot(holdings);
    const attempts = [
      await system.request('GET', '/api/v2/organizations/vault-corp', { key: sandbox }),
      await system.request('PUT', '/api/v2/organizations/vault-corp', {
        key: sandbox,
        body: { name: 'Stolen', allowed_email_domains: ['attacker.example'] },
      }),
      await system.request('DELETE', '/api/v2/organizations/vault-corp', { key: sandbox }),
      await system.request('GET', '/api/v2/org/vault-corp/users', { key: sandbox }),
      await system.request('POST', '/api/v2/org/vault-corp/users', { key: sandbox, body: { email: 'eve@vault.example' } }),
      await system.request('POST', '/api/v2/org/vault-corp/admins', { key: sandbox, body: { email: 'eve@vault.example' } }),
      await system.request('GET', '/api/v2/org/vault-corp/password-connection', { key: sandbox }),
      await system.request('GET', '/api/v2/org/vault-corp/totp-connection', { key: sandbox }),
    ];
    expect(attempts.map(({ status, body }) => ({ status, body }))).toEqual(attempts.map(() => ({ status: 404, body: notFound })));
    // Sign-ins resolve the organization in the key's environment: the production one allows
    // vault.example, but for a sandbox key no organization does.
    expect(
      await system.request('POST', '/api/v2/magic-link-challenge', {
        key: sandbox,
        body: { email: 'ada@vault.example', redirect_uri: 'https://app.example.com/callback' },
      }),
    ).toMatchObject({
      status: 422,
      body: { errors: { org_domain: ['is required: no organization allows the domain of this email'] } },
    });
    expect(await snapshot(holdings)).toEqual(before);
  });

  it('keeps two organizations of one domain apart: deleting the sandbox one leaves the production one whole', async () => {
    const inSandbox = await create(sandbox, 'Twin Corp', 'twin.example');
    const inProduction = await create(production, 'Twin Corp', 'twin.example');
    expect([inSandbox.domain, inProduction.domain]).toEqual(['twin-corp', 'twin-corp']);
    expect(inSandbox.id).not.toBe(inProduction.id);
    expect([inSandbox.__environment__, inProduction.__environment__]).toEqual(['sandbox', 'production']);
    const sandboxHoldings = await populate(sandbox, 'twin-corp', 'twin.example');
    const productionHoldings = await populate(production, 'twin-corp', 'twin.example');
    const before = await snapshot(productionHoldings);
    expect(before[1]?.body.data.map((user: { email: string }) => user.email).sort()).toEqual([
      'ada@twin.example',
      'grace@twin.example',
    ]);

    const deleted = await system.request('DELETE', '/api/v2/organizations/twin-corp', { key: sandbox });
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true, resource: { id: inSandbox.id } } });
    expect(await system.request('GET', '/api/v2/organizations/twin-corp', { key: sandbox })).toMatchObject({
      status: 404,
      body: notFound,
    });
    const expected = [
      'AdminRemoved',
      'DirectorySyncDeleted',
      'GroupDeleted',
      'MagicLinkConnectionDeleted',
      'PasswordConnectionDeleted',
      'SsoConnectionDeleted',
      'TotpConnectionDeleted',
      'UserDeleted',
      'UserDeleted',
    ];
    await eventually(async () => expected.every((type) => removals('twin-corp', 'sandbox').includes(type)), 30_000);
    await eventually(
      async () =>
        (await system.request('GET', `${sandboxHoldings.scim.path}/Users`, { token: sandboxHoldings.scim.token })).status === 401,
    );
    expect(removals('twin-corp', 'production')).toEqual([]);
    expect(await snapshot(productionHoldings)).toEqual(before);
  });

  it('leaves the production organization the sandbox key tried to delete whole once every reaction has run', async () => {
    // The reactions to the sandbox deletion above ran after any the refused deletion could have caused.
    expect(removals('vault-corp', 'production')).toEqual([]);
    expect(removals('vault-corp', 'sandbox')).toEqual([]);
    expect(await system.request('GET', '/api/v2/organizations/vault-corp', { key: production })).toMatchObject({
      status: 200,
      body: { name: 'Vault Corp', allowed_email_domains: ['vault.example'] },
    });
  });

  it('lists only the environment of the key', async () => {
    const list = async (key: ApiKey) =>
      (await system.request('GET', '/api/v2/organizations?per_page=100', { key })).body.data.map(
        (organization: { domain: string; __environment__: string }) => `${organization.__environment__}:${organization.domain}`,
      );
    expect(await list(sandbox)).toEqual([]);
    expect(await list(production)).toEqual(['production:prod-only', 'production:vault-corp', 'production:twin-corp']);
  });

  it('refuses an update naming the other environment with a 422 field error, and changes nothing', async () => {
    const organization = await create(sandbox, 'Sandbox Only', 'sandbox-only.example');
    const refused = await system.request('PUT', `/api/v2/organizations/${organization.domain}`, {
      body: { name: 'Both Worlds', environments: [{ name: 'production', status: 'up' }] },
    });
    expect(refused).toMatchObject({ status: 422, body: { errors: { environments: [otherEnvironmentMessage] } } });
    expect(refused.body).toEqual({ errors: { environments: [otherEnvironmentMessage] } });
    expect((await system.request('GET', `/api/v2/organizations/${organization.domain}`)).body).toEqual(organization);
    const down = await system.request('PUT', `/api/v2/organizations/${organization.domain}`, {
      body: { environments: [{ name: 'sandbox', status: 'down' }] },
    });
    expect(down).toMatchObject({ status: 200, body: { environments: [{ name: 'sandbox', status: 'down' }] } });
  });
});
