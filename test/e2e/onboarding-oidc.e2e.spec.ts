import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization } from '../support/identity-fixtures';
import { onboardingCall, onboardingSession } from '../support/admin-invitations';
import { freePort } from '../support/free-port';
import { CookieBrowser, signInAtProvider, startOidcProcess } from '../support/oidc-providers';
import type { OidcProcess } from '../support/oidc-providers';

const clientSecret = 'onboarding-client-secret-0123456789';

/**
 * The onboarding page's OIDC step over HTTP: the IT admin gives the issuer, client id and secret of
 * their identity provider, reads back our redirect URI, and tests a sign-in against oidc-provider
 * (a real OpenID provider in its own process).
 */
describe('IT-admin OIDC connection and test sign-in (all processes, oidc-provider as the IdP)', () => {
  let system: System;
  let provider: OidcProcess;
  let org: string;
  let redirectUri: string;
  const returnUrl = () => `${system.baseUrl}/onboarding/admin-invitation`;
  const post = (path: string, session: string, body: unknown = {}) => onboardingCall(system, 'POST', path, session, body);
  const configure = (session: string, body: unknown) => onboardingCall(system, 'PUT', 'sso/connection', session, body);
  const oidcBody = (fields: Record<string, unknown> = {}) => ({
    type: 'oidc',
    provider_type: 'okta',
    oidc_issuer: provider.issuer,
    oidc_client_id: 'sesame-onboarding',
    oidc_client_secret: clientSecret,
    ...fields,
  });

  beforeAll(async () => {
    system = await sharedSystem();
    org = await createOrganization(system, 'Onboarding OIDC Org', { allowed_email_domains: ['onboarding-oidc.test'] });
    redirectUri = `${system.baseUrl}/sso/oidc/${org}_sandbox/callback`;
    provider = await startOidcProcess('oidc-provider.mjs', {
      CLIENT_ID: 'sesame-onboarding',
      CLIENT_SECRET: clientSecret,
      REDIRECT_URI: redirectUri,
      EMAIL_DOMAIN: 'onboarding-oidc.test',
    });
  }, 60_000);

  afterAll(async () => {
    await provider?.stop();
  });

  it('saves the OIDC client, answers our redirect URI and "secret set", never the secret', async () => {
    const session = await onboardingSession(system, org, 'oidc.admin@example.com');
    const saved = await configure(session, oidcBody({ oidc_scopes: ['email', 'groups'] }));
    expect(saved).toMatchObject({
      status: 200,
      body: {
        __domain__: org,
        type: 'oidc',
        provider_type: 'okta',
        oidc_config: {
          issuer: provider.issuer,
          client_id: 'sesame-onboarding',
          client_secret_set: true,
          scopes: ['openid', 'email', 'groups'],
          redirect_uri: redirectUri,
        },
      },
    });
    expect(JSON.stringify(saved.body)).not.toContain(clientSecret);
    const read = await post('sso/connection', session);
    expect(read).toMatchObject({
      status: 200,
      body: { sso_connection: { id: saved.body.id, oidc_config: saved.body.oidc_config } },
    });
    expect(JSON.stringify(read.body)).not.toContain(clientSecret);

    // Saved again without the secret, the recorded one is kept.
    const resaved = await configure(session, oidcBody({ oidc_client_secret: undefined, oidc_scopes: ['email', 'profile'] }));
    expect(resaved).toMatchObject({
      status: 200,
      body: { id: saved.body.id, oidc_config: { client_secret_set: true, scopes: ['openid', 'email', 'profile'] } },
    });
  });

  it('refuses missing fields, an invalid issuer URL and SAML metadata on an OIDC connection (422 field errors)', async () => {
    const session = await onboardingSession(system, org, 'hasty.admin@example.com');
    expect(await configure(session, { type: 'oidc', provider_type: 'okta' })).toMatchObject({
      status: 422,
      body: { errors: { oidc_issuer: ["can't be blank"], oidc_client_id: ["can't be blank"] } },
    });
    expect((await configure(session, { type: 'oidc', provider_type: 'okta' })).body.errors).not.toHaveProperty('metadata');
    expect(await configure(session, oidcBody({ oidc_issuer: 'not a url' }))).toMatchObject({
      status: 422,
      body: { errors: { oidc_issuer: ['must be an http(s) URL'] } },
    });
    expect(await configure(session, oidcBody({ oidc_issuer: 'https://idp.example.com/?tenant=1' }))).toMatchObject({
      status: 422,
      body: { errors: { oidc_issuer: ['must not have a query or fragment'] } },
    });
    expect(await configure(session, oidcBody({ oidc_scopes: ['email profile'] }))).toMatchObject({
      status: 422,
      body: { errors: { 'oidc_scopes.0': ['must be a scope token (no spaces or quotes)'] } },
    });
    expect(await configure(session, oidcBody({ metadata: '<md:EntityDescriptor/>' }))).toMatchObject({
      status: 422,
      body: { errors: { metadata: ['is only for SAML connections (type saml)'] } },
    });
    expect(await configure(session, { provider_type: 'okta', oidc_issuer: provider.issuer })).toMatchObject({
      status: 422,
      body: { errors: { metadata: ["can't be blank"] } },
    });
  });

  it('test sign-in: to the IdP, back to the page, and the result read as for SAML; no user is created', async () => {
    const session = await onboardingSession(system, org, 'tester.oidc@example.com');
    expect((await configure(session, oidcBody())).status).toBe(200);
    const started = await post('sso/test', session, { return_url: returnUrl() });
    expect(started).toMatchObject({
      status: 200,
      body: { request_id: expect.any(String), authorization_url: expect.any(String) },
    });
    const { request_id, authorization_url } = started.body;
    expect(authorization_url.startsWith(`${provider.issuer}/`)).toBe(true);
    expect(new URL(authorization_url).searchParams.get('redirect_uri')).toBe(redirectUri);
    expect((await post('sso/test-result', session, { request_id })).body.status).toBe('pending');

    const browser = new CookieBrowser();
    const callback = await signInAtProvider(browser, authorization_url, 'tess.tester');
    const landing = await browser.get(callback);
    expect(landing).toMatchObject({ status: 302, location: `${returnUrl()}?request_id=${request_id}&sso_test=success` });
    expect(await post('sso/test-result', session, { request_id })).toMatchObject({
      status: 200,
      body: {
        status: 'succeeded',
        email: 'tess.tester@onboarding-oidc.test',
        profile: { given_name: 'Tess', family_name: 'Tester' },
        reason: null,
      },
    });
    expect((await system.request('GET', `/api/v2/org/${org}/users/tess.tester@onboarding-oidc.test`)).status).toBe(404);

    // Another organization's onboarding session neither reads this test nor sees this connection.
    const other = await createOrganization(system, 'Other Onboarding OIDC Org');
    const otherSession = await onboardingSession(system, other, 'nosy.admin@example.com');
    expect(await post('sso/test-result', otherSession, { request_id })).toMatchObject({
      status: 404,
      body: { error: { type: 'resource_not_found' } },
    });
    expect(await post('sso/connection', otherSession)).toMatchObject({ status: 200, body: { sso_connection: null } });
  });

  it('refuses a test sign-in with an unreachable issuer, or without a client secret (422 on oidc_issuer)', async () => {
    const unreachableOrg = await createOrganization(system, 'Unreachable OIDC Org');
    const session = await onboardingSession(system, unreachableOrg, 'unlucky.admin@example.com');
    expect(await post('sso/sp-settings', session)).toMatchObject({
      status: 200,
      body: { oidc_redirect_uri: `${system.baseUrl}/sso/oidc/${unreachableOrg}_sandbox/callback` },
    });
    expect((await configure(session, oidcBody({ oidc_client_secret: undefined }))).status).toBe(200);
    expect(await post('sso/test', session, { return_url: returnUrl() })).toMatchObject({
      status: 422,
      body: { errors: { oidc_issuer: ['has an OIDC connection without issuer, client id or client secret'] } },
    });
    const nobody = `http://127.0.0.1:${await freePort()}`;
    expect((await configure(session, oidcBody({ oidc_issuer: nobody }))).status).toBe(200);
    expect(await post('sso/test', session, { return_url: returnUrl() })).toMatchObject({
      status: 422,
      body: { errors: { oidc_issuer: ['has an OIDC connection whose issuer does not answer a valid discovery document'] } },
    });
  });
});
