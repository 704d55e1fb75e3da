import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';
import { inviteAdmin } from '../support/admin-invitations';

const fixtures = join(__dirname, '../../services/auth-methods/src/sso-saml/metadata/fixtures');
const okta = readFileSync(join(fixtures, 'okta.xml'), 'utf8');
const azure = readFileSync(join(fixtures, 'azure-ad.xml'), 'utf8');

describe('IT-admin onboarding page and its invitation endpoints (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  const post = (path: string, body: unknown) => system.request('POST', path, { token: null, body });
  const open = (token: unknown) => post('/api/v2/admin-invitations/open', { token });

  beforeAll(async () => {
    system = await System.start();
    org = await createOrganization(system, 'Onboarding Org', {
      allowed_email_domains: ['onboarding-e2e.example'],
      locale: 'fr-FR',
    });
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('serves the page of the invitation link with headers that keep the token in it', async () => {
    const { link } = await inviteAdmin(system, org, 'page@example.com');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const script = /<script type="module" crossorigin src="(\/onboarding\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    expect(script).toBeDefined();
    const asset = await fetch(`${system.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toContain('/api/v2/admin-invitations');
  });

  it('answers 404 in the documented shape for an asset that is not part of the app', async () => {
    for (const path of ['/onboarding/assets/nope.js', '/onboarding/assets/..%2F..%2Fpackage.json', '/onboarding/other'])
      expect(await system.request('GET', path, { token: null })).toMatchObject({
        status: 404,
        body: { error: { type: 'resource_not_found', message: 'Resource Not Found' } },
      });
  });

  it('opens an invitation: who is invited, for which organization, until when; records the visit', async () => {
    const { token } = await inviteAdmin(system, org, 'opener@example.com');
    const opened = await open(token);
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({
      admin: expect.objectContaining({
        __type__: 'Admin',
        email: 'opener@example.com',
        organization: org,
        accepted_invitation_at: null,
        last_login_at: expect.any(String),
      }),
      organization: { domain: org, name: 'Onboarding Org', allowed_email_domains: ['onboarding-e2e.example'], locale: 'fr-FR' },
      expires_at: expect.any(String),
    });
    const admin = await system.request('GET', `/api/v2/org/${org}/admins/opener@example.com`);
    expect(admin.body.last_login_at).toBe(opened.body.admin.last_login_at);
    expect(Date.parse(opened.body.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it('still opens after the invitation is accepted, but not once declined', async () => {
    const accepted = await inviteAdmin(system, org, 'accepts@example.com');
    expect((await post('/api/v2/admin-invitations/accept', { token: accepted.token })).status).toBe(200);
    const reopened = await open(accepted.token);
    expect(reopened).toMatchObject({ status: 200, body: { admin: { accepted_invitation_at: expect.any(String) } } });

    const declined = await inviteAdmin(system, org, 'declines@example.com');
    expect((await post('/api/v2/admin-invitations/decline', { token: declined.token })).status).toBe(200);
    expect(await open(declined.token)).toEqual(
      expect.objectContaining({
        status: 422,
        body: { errors: { token: ['has been declined: ask to be invited again'] } },
      }),
    );
  });

  it.each([
    ['no token', undefined, "can't be blank"],
    ['a malformed token', 'garbage', 'is invalid'],
    ['a forged secret', '00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'is invalid'],
  ])('refuses to open with %s', async (_case, token, message) => {
    expect(await open(token)).toMatchObject({ status: 422, body: { errors: { token: [message] } } });
  });

  it('refuses the link of an invitation that was sent again', async () => {
    const first = await inviteAdmin(system, org, 'twice@example.com');
    await inviteAdmin(system, org, 'twice@example.com');
    expect(await open(first.token)).toMatchObject({ status: 422, body: { errors: { token: ['is invalid'] } } });
  });

  describe('the SSO set-up an invitation reaches', () => {
    const sso = (token: unknown, fields: Record<string, unknown> = {}) =>
      system.request('PUT', '/api/v2/admin-invitations/sso/connection', { token: null, body: { token, ...fields } });

    it('shows our SP values before any connection exists, then creates and updates the connection with the metadata', async () => {
      const { token } = await inviteAdmin(system, org, 'sso.admin@example.com');
      const base = `${system.baseUrl}/sso/saml/${org}_sandbox`;
      expect(await post('/api/v2/admin-invitations/sso/sp-settings', { token })).toEqual({
        status: 200,
        headers: expect.anything(),
        body: {
          sp_id: `${org}_sandbox`,
          saml_config: {
            acs_url: `${base}/acs`,
            entity_id: `${base}/metadata`,
            cryptr_metadata_url: `${base}/metadata`,
            slo_url: `${base}/slo`,
            slo_response_url: `${base}/slo/response`,
            sso_provider_metadata: null,
          },
        },
      });
      expect(await post('/api/v2/admin-invitations/sso/connection', { token })).toMatchObject({
        status: 200,
        body: { sso_connection: null },
      });

      const created = await sso(token, { provider_type: 'okta', metadata: okta });
      expect(created).toMatchObject({
        status: 200,
        body: {
          __type__: 'SsoConnection',
          __domain__: org,
          __environment__: 'sandbox',
          provider_type: 'okta',
          metadata: okta.trim(),
          users_access_policy: 'provision_new_users',
          identity_provider: { entity_id: expect.any(String), sso_url: expect.any(String) },
        },
      });
      const updated = await sso(token, { provider_type: 'azure_ad', metadata: azure });
      expect(updated.body).toMatchObject({ id: created.body.id, provider_type: 'azure_ad' });
      expect(updated.body.saml_config.sso_provider_metadata).toBe(
        'https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/',
      );
      expect((await system.request('GET', `/api/v2/org/${org}/sso-connection`)).body).toEqual(updated.body);
      expect((await post('/api/v2/admin-invitations/sso/connection', { token })).body).toEqual({ sso_connection: updated.body });
    });

    it('reaches only the organization and environment of the invitation, whatever the body says', async () => {
      const other = await createOrganization(system, 'Other Onboarding Org');
      const { token } = await inviteAdmin(system, other, 'scoped.admin@example.com');
      const answer = await sso(token, {
        provider_type: 'google',
        metadata: okta,
        organization_domain: org,
        environment: 'production',
        users_access_policy: 'unregistered_users_allowed',
        active: false,
      });
      expect(answer.body).toMatchObject({
        __domain__: other,
        __environment__: 'sandbox',
        provider_type: 'google',
        users_access_policy: 'provision_new_users',
        active: true,
      });
      expect((await system.request('GET', `/api/v2/org/${org}/sso-connection`)).body.provider_type).toBe('azure_ad');
    });

    it('refuses bad metadata and missing fields (422 field errors)', async () => {
      const { token } = await inviteAdmin(system, org, 'sloppy.admin@example.com');
      expect(await sso(token, { provider_type: 'okta', metadata: '<md:EntityDescriptor' })).toMatchObject({
        status: 422,
        body: { errors: { metadata: [expect.stringMatching(/^is not valid XML \(.+\)$/)] } },
      });
      expect(await sso(token, { provider_type: 'shibboleth' })).toMatchObject({
        status: 422,
        body: { errors: { provider_type: [expect.any(String)], metadata: ["can't be blank"] } },
      });
    });

    it('refuses a token that cannot be used, before reaching the connection', async () => {
      const { token } = await inviteAdmin(system, org, 'gone.admin@example.com');
      expect((await post('/api/v2/admin-invitations/decline', { token })).status).toBe(200);
      const declined = { status: 422, body: { errors: { token: ['has been declined: ask to be invited again'] } } };
      expect(await post('/api/v2/admin-invitations/sso/sp-settings', { token })).toMatchObject(declined);
      expect(await post('/api/v2/admin-invitations/sso/connection', { token })).toMatchObject(declined);
      expect(await sso(token, { provider_type: 'okta', metadata: okta })).toMatchObject(declined);
      expect(await sso('garbage', { provider_type: 'okta', metadata: okta })).toMatchObject({
        status: 422,
        body: { errors: { token: ['is invalid'] } },
      });
      expect(await post('/api/v2/admin-invitations/sso/sp-settings', {})).toMatchObject({
        status: 422,
        body: { errors: { token: ["can't be blank"] } },
      });
    });
  });
});
