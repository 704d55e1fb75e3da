import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKey, System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { CookieBrowser, signInAtProvider, startOidcProcess } from '../support/oidc-providers';
import type { BrowserHop, OidcProcess } from '../support/oidc-providers';
import { WebhookReceiver } from '../support/webhook-receiver';

const appCallback = 'https://app.example.com/oidc-callback';
const clientSecret = 'provider-client-secret-0123456789';

/**
 * OIDC sign-in through the real processes, Sesame as the relying party: against oidc-provider (a
 * real OpenID provider in its own process, its login and consent forms posted as a browser does),
 * and against a hand-made provider that signs each ID token as an attack needs. Every refusal is
 * checked by what the user is shown and the reason the operator finds in the logs.
 */
describe('OIDC SSO sign-in (all processes, oidc-provider as the IdP)', () => {
  let system: System;
  let production: ApiKey;
  let provider: OidcProcess;
  let forger: OidcProcess;
  let org: string;
  let forgedOrg: string;
  let redirectUri: string;
  let receiver: WebhookReceiver;

  const params = (location: string | null) => Object.fromEntries(new URL(location as string).searchParams.entries());
  const logged = async (hop: { correlationId: string | null }, reason: string) => {
    const line = `"correlationId":"${hop.correlationId}","reason":"${reason}"`;
    await eventually(async () => readFileSync(join(system.logDir, 'auth-methods.log'), 'utf8').includes(line));
    return true;
  };
  const challenge = async (orgDomain: string) => {
    const { status, body } = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: appCallback, org_domain: orgDomain },
    });
    expect(status).toBe(201);
    return body as { request_id: string; authorization_url: string; sso_connection_id: string };
  };
  /** The user signs in at oidc-provider: answers the callback the provider sends the browser to. */
  const atProvider = async (login = 'ada.lovelace') => {
    const started = await challenge(org);
    const browser = new CookieBrowser();
    const callback = await signInAtProvider(browser, started.authorization_url, login);
    return { ...started, browser, callback };
  };
  /** A sign-in through the forging provider, its ID token made as `mode` says. */
  const forged = async (mode: string) => {
    await fetch(`${forger.issuer}/mode`, { method: 'POST', body: new URLSearchParams({ mode }) });
    const started = await challenge(forgedOrg);
    const browser = new CookieBrowser();
    const toCallback = await browser.get(started.authorization_url);
    expect(toCallback.status).toBe(302);
    return { ...started, hop: await browser.get(toCallback.location as string) };
  };
  const refusedTo = (hop: BrowserHop, requestId: string, message: string) => {
    expect(hop.status).toBe(302);
    expect(hop.location?.startsWith(`${appCallback}?`)).toBe(true);
    expect(params(hop.location)).toEqual({ error: 'access_denied', error_description: message, request_id: requestId });
  };

  beforeAll(async () => {
    system = await sharedSystem();
    production = system.createApiKey('production');
    org = await createOrganization(system, 'Acme OIDC', { allowed_email_domains: ['acme-oidc.test'] });
    forgedOrg = await createOrganization(system, 'Forged OIDC', { allowed_email_domains: ['forged-oidc.test'] });
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: appCallback } });
    const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, { body: { type: 'oidc' } });
    expect(created.status).toBe(201);
    redirectUri = created.body.oidc_config.redirect_uri;
    provider = await startOidcProcess('oidc-provider.mjs', {
      CLIENT_ID: 'sesame-acme',
      CLIENT_SECRET: clientSecret,
      REDIRECT_URI: redirectUri,
      EMAIL_DOMAIN: 'acme-oidc.test',
    });
    forger = await startOidcProcess('oidc-forger.mjs', {
      CLIENT_ID: 'sesame-forged',
      CLIENT_SECRET: clientSecret,
      EMAIL: 'grace@forged-oidc.test',
    });
    const configured = await system.request('PUT', `/api/v2/org/${org}/sso-connection`, {
      body: { oidc_issuer: provider.issuer, oidc_client_id: 'sesame-acme', oidc_client_secret: clientSecret },
    });
    expect(configured.status).toBe(200);
    const forgedConnection = await system.request('POST', `/api/v2/org/${forgedOrg}/sso-connection`, {
      body: { type: 'oidc', oidc_issuer: forger.issuer, oidc_client_id: 'sesame-forged', oidc_client_secret: clientSecret },
    });
    expect(forgedConnection.status).toBe(201);
    receiver = await WebhookReceiver.start();
    const webhook = await system.request('POST', '/api/v2/webhooks', {
      body: {
        name: 'OIDC sign-ins',
        event_codes: ['sso.login.succeeded', 'sso.login.failed', 'sso_connection.updated'],
        target_url: `${receiver.url}/forged`,
        organization_domain: forgedOrg,
      },
    });
    expect(webhook.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await provider?.stop();
    await forger?.stop();
    await receiver?.stop();
  });

  /** The events of `code` delivered to the forged organization's webhook so far. */
  const deliveredEvents = (code: string) =>
    receiver
      .to('/forged')
      .map((delivery) => JSON.parse(delivery.body) as { code: string; data: Record<string, any> })
      .filter((event) => event.code === code);

  describe('the connection', () => {
    it('answers its OIDC settings and our redirect URI, never the client secret', async () => {
      const answer = await system.request('GET', `/api/v2/org/${org}/sso-connection`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        type: 'oidc',
        sp_id: `${org}_sandbox`,
        oidc_config: {
          issuer: provider.issuer,
          client_id: 'sesame-acme',
          client_secret_set: true,
          scopes: ['openid', 'email', 'profile'],
          redirect_uri: `${system.baseUrl}/sso/oidc/${org}_sandbox/callback`,
        },
      });
      expect(JSON.stringify(answer.body)).not.toContain(clientSecret);
      const list = await system.request('GET', '/api/v2/sso-connections?per_page=100');
      expect(JSON.stringify(list.body)).not.toContain(clientSecret);
      expect(readFileSync(join(system.logDir, 'auth-methods.log'), 'utf8')).not.toContain(clientSecret);
    });

    it('keeps the scopes asked for, openid always first', async () => {
      const other = await createOrganization(system, 'Scopes OIDC');
      const created = await system.request('POST', `/api/v2/org/${other}/sso-connection`, {
        body: { type: 'oidc', oidc_scopes: ['email', 'groups'] },
      });
      expect(created.status).toBe(201);
      expect(created.body.oidc_config).toEqual({
        issuer: null,
        client_id: null,
        client_secret_set: false,
        scopes: ['openid', 'email', 'groups'],
        redirect_uri: `${system.baseUrl}/sso/oidc/${other}_sandbox/callback`,
      });
      // Without issuer, client id and secret, no sign-in starts.
      const started = await system.request('POST', '/api/v2/sso-saml-challenge', {
        body: { redirect_uri: appCallback, org_domain: other },
      });
      expect(started).toMatchObject({
        status: 422,
        body: { errors: { org_domain: ['has an OIDC connection without issuer, client id or client secret'] } },
      });
    });

    it('refuses OIDC fields on a SAML connection, SAML metadata on an OIDC one, and malformed fields (422)', async () => {
      const other = await createOrganization(system, 'Invalid OIDC');
      const path = `/api/v2/org/${other}/sso-connection`;
      expect(await system.request('POST', path, { body: { oidc_issuer: 'https://idp.example.com' } })).toMatchObject({
        status: 422,
        body: { errors: { oidc_issuer: ['is only for OIDC connections (type oidc)'] } },
      });
      expect(await system.request('POST', path, { body: { oidc_client_secret: 's3cret' } })).toMatchObject({
        status: 422,
        body: { errors: { oidc_client_secret: ['is only for OIDC connections (type oidc)'] } },
      });
      expect(await system.request('POST', path, { body: { type: 'oidc', metadata: '<xml/>' } })).toMatchObject({
        status: 422,
        body: { errors: { metadata: ['is only for SAML connections (type saml)'] } },
      });
      const malformed = await system.request('POST', path, {
        body: { type: 'kerberos', oidc_issuer: 'ftp://idp.example.com', oidc_scopes: ['two words'] },
      });
      expect(malformed.status).toBe(422);
      expect(Object.keys(malformed.body.errors).sort()).toEqual(['oidc_issuer', 'oidc_scopes.0', 'type']);
      expect(malformed.body.errors.oidc_issuer).toEqual(['must be an http(s) URL']);
      expect(malformed.body.errors['oidc_scopes.0']).toEqual(['must be a scope token (no spaces or quotes)']);
    });

    it('an issuer that does not answer its discovery document: the sign-in does not start (422)', async () => {
      const other = await createOrganization(system, 'Unreachable OIDC');
      await system.request('POST', `/api/v2/org/${other}/sso-connection`, {
        body: { type: 'oidc', oidc_issuer: 'http://127.0.0.1:9', oidc_client_id: 'x', oidc_client_secret: 'y' },
      });
      const started = await system.request('POST', '/api/v2/sso-saml-challenge', {
        body: { redirect_uri: appCallback, org_domain: other },
      });
      expect(started).toMatchObject({
        status: 422,
        body: { errors: { org_domain: ['has an OIDC connection whose issuer does not answer a valid discovery document'] } },
      });
    });

    it('another environment’s key sees neither the connection nor its sign-in (404)', async () => {
      expect(await system.request('GET', `/api/v2/org/${org}/sso-connection`, { key: production })).toMatchObject({
        status: 404,
      });
      const started = await system.request('POST', '/api/v2/sso-saml-challenge', {
        body: { redirect_uri: appCallback, org_domain: org },
        key: production,
      });
      expect(started).toMatchObject({
        status: 404,
        body: { error: { type: 'resource_not_found', message: 'Resource Not Found' } },
      });
    });
  });

  it('signs in: PKCE, state and nonce to the provider, its login and consent, code exchanged, user provisioned, one-time code to the application', async () => {
    const started = await challenge(org);
    const authorization = new URL(started.authorization_url);
    expect(`${authorization.origin}${authorization.pathname}`).toBe(`${provider.issuer}/auth`);
    expect(Object.fromEntries(authorization.searchParams.entries())).toEqual({
      client_id: 'sesame-acme',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: expect.stringMatching(new RegExp(`^${started.request_id}\\.[\\w-]{43}$`)),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    const browser = new CookieBrowser();
    const callback = await signInAtProvider(browser, started.authorization_url, 'ada.lovelace');
    expect(callback.startsWith(`${redirectUri}?`)).toBe(true);
    expect(params(callback)).toMatchObject({ code: expect.any(String), state: authorization.searchParams.get('state') });

    const landing = await browser.get(callback);
    expect(landing.status).toBe(302);
    expect(params(landing.location)).toEqual({ code: expect.stringMatching(/^\S{20,}$/), request_id: started.request_id });

    const user = await system.request('GET', `/api/v2/org/${org}/users/ada.lovelace@acme-oidc.test`);
    expect(user.status).toBe(200);
    expect(user.body.profile).toMatchObject({ given_name: 'Ada', family_name: 'Lovelace' });
    expect(user.body.identities).toEqual([expect.objectContaining({ provider: 'oidc', idp_id: 'ada.lovelace' })]);

    const tokens = await fetch(`${system.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: params(landing.location).code as string,
        client_id: system.apiKey.clientId,
        client_secret: system.apiKey.clientSecret,
      }).toString(),
    });
    expect(tokens.status).toBe(200);

    // The same callback again (back button, or a stolen URL): the sign-in request is used.
    const replay = await browser.get(callback);
    refusedTo(replay, started.request_id, 'This sign-in request was already used.');
    expect(await logged(replay, 'challenge_used')).toBe(true);
  });

  it('a wrong state is refused with a page, and the sign-in it does not prove stays usable', async () => {
    const signIn = await atProvider('alan.turing');
    const url = new URL(signIn.callback);
    const state = url.searchParams.get('state') as string;
    url.searchParams.set('state', `${signIn.request_id}.${'A'.repeat(43)}`);
    const wrong = await signIn.browser.get(url.toString());
    expect(wrong.status).toBe(400);
    expect(wrong.body).toContain('This sign-in answer does not match a sign-in request of this browser.');
    expect(await logged(wrong, 'state_mismatch')).toBe(true);
    url.searchParams.set('state', 'not-a-sign-in');
    const unknown = await signIn.browser.get(url.toString());
    expect(unknown.status).toBe(400);
    expect(await logged(unknown, 'state_mismatch')).toBe(true);

    url.searchParams.set('state', state);
    const landing = await signIn.browser.get(url.toString());
    expect(params(landing.location)).toEqual({ code: expect.any(String), request_id: signIn.request_id });
  });

  it('another organization’s connection does not take the callback (its state names no sign-in of it)', async () => {
    const signIn = await atProvider('edsger.dijkstra');
    const elsewhere = signIn.callback.replace(`/sso/oidc/${org}_sandbox/`, `/sso/oidc/${forgedOrg}_sandbox/`);
    const hop = await signIn.browser.get(elsewhere);
    expect(hop.status).toBe(400);
    expect(hop.body).toContain('This sign-in answer does not match a sign-in request of this browser.');
    expect(await logged(hop, 'state_mismatch')).toBe(true);
  });

  it('a replayed authorization code under a new sign-in request: the provider refuses it', async () => {
    const first = await atProvider('barbara.liskov');
    const landing = await first.browser.get(first.callback);
    expect(landing.status).toBe(302);
    const second = await atProvider('barbara.liskov');
    const replayed = new URL(second.callback);
    replayed.searchParams.set('code', new URL(first.callback).searchParams.get('code') as string);
    const hop = await second.browser.get(replayed.toString());
    refusedTo(hop, second.request_id, 'The identity provider refused to complete the sign-in.');
    expect(await logged(hop, 'token_exchange_failed')).toBe(true);
  });

  it('the provider’s error answer (the user declined) is refused to the application', async () => {
    const started = await challenge(org);
    const state = new URL(started.authorization_url).searchParams.get('state') as string;
    const hop = await new CookieBrowser().get(
      `${redirectUri}?${new URLSearchParams({ error: 'access_denied', error_description: 'End-User aborted interaction', state })}`,
    );
    refusedTo(hop, started.request_id, 'The identity provider did not sign you in.');
    expect(await logged(hop, 'idp_error')).toBe(true);
  });

  it('applies the connection’s users-on-login rules as SAML does: only registered users, then a provisioning limit', async () => {
    const path = `/api/v2/org/${org}/sso-connection`;
    await system.request('PUT', path, { body: { users_access_policy: 'only_registered_users' } });
    const stranger = await atProvider('grace.hopper');
    const refused = await stranger.browser.get(stranger.callback);
    refusedTo(refused, stranger.request_id, 'Your account is not registered for this application.');
    expect(await logged(refused, 'user_not_registered')).toBe(true);
    expect((await system.request('GET', `/api/v2/org/${org}/users/grace.hopper@acme-oidc.test`)).status).toBe(404);

    const { body: count } = await system.request('GET', `/api/v2/org/${org}/users?per_page=1`);
    await system.request('PUT', path, {
      body: { users_access_policy: 'provision_new_users', number_users_provisioning_limit: count.total },
    });
    const overLimit = await atProvider('grace.hopper');
    const limited = await overLimit.browser.get(overLimit.callback);
    refusedTo(limited, overLimit.request_id, 'No more users can be created for this organization.');
    expect(await logged(limited, 'provisioning_limit_reached')).toBe(true);
    // A known user still signs in.
    const known = await atProvider('ada.lovelace');
    expect(params((await known.browser.get(known.callback)).location)).toEqual({
      code: expect.any(String),
      request_id: known.request_id,
    });
    await system.request('PUT', path, { body: { number_users_provisioning_limit: null } });
  });

  describe('ID tokens forged for the attacks (a hand-made provider signs them)', () => {
    it('a valid one signs in (the forging provider is a working provider)', async () => {
      const { hop, request_id } = await forged('valid');
      expect(params(hop.location)).toEqual({ code: expect.any(String), request_id });
    });

    const attacks: [mode: string, message: string, reason: string][] = [
      ['other_key', 'The identity provider response signature is not valid.', 'bad_signature'],
      ['alg_none', 'The identity provider response is not signed.', 'unsigned'],
      ['other_issuer', 'The identity provider response comes from another identity provider.', 'wrong_issuer'],
      ['mixup_iss_param', 'The identity provider response comes from another identity provider.', 'wrong_issuer'],
      ['expired', 'The identity provider response has expired.', 'expired'],
      ['wrong_nonce', 'The identity provider’s ID token was issued for another sign-in request.', 'nonce_mismatch'],
      ['other_audience', 'The identity provider response is meant for another application.', 'wrong_audience'],
    ];
    it.each(attacks)('%s: refused to the application', async (mode, message, reason) => {
      const { hop, request_id } = await forged(mode);
      refusedTo(hop, request_id, message);
      expect(await logged(hop, reason)).toBe(true);
    });

    it('publishes the same webhooks as SAML sign-ins: the subject is the ID token’s sub; refusals carry their reason; never the client secret', async () => {
      await system.request('PUT', `/api/v2/org/${forgedOrg}/sso-connection`, {
        body: { oidc_client_secret: clientSecret, oidc_scopes: ['email'] },
      });
      await eventually(
        async () =>
          deliveredEvents('sso.login.succeeded').length >= 1 &&
          deliveredEvents('sso.login.failed').length >= attacks.length &&
          deliveredEvents('sso_connection.updated').length >= 1,
        60_000,
      );
      expect(deliveredEvents('sso.login.succeeded')[0]?.data).toMatchObject({
        organization_domain: forgedOrg,
        subject: { name_id: 'forger-subject-1', email: 'grace@forged-oidc.test', user_id: expect.any(String) },
        assertion_id: expect.stringMatching(/^oidc-[0-9a-f]{64}$/),
      });
      expect(
        deliveredEvents('sso.login.failed')
          .map((event) => event.data.reason)
          .sort(),
      ).toEqual(attacks.map(([, , reason]) => reason).sort());
      expect(deliveredEvents('sso_connection.updated')[0]?.data.settings).toMatchObject({
        type: 'oidc',
        oidc_issuer: forger.issuer,
        oidc_client_id: 'sesame-forged',
        oidc_scopes: ['openid', 'email'],
      });
      expect(JSON.stringify(receiver.deliveries.map((delivery) => delivery.body))).not.toContain(clientSecret);
    }, 90_000);
  });
});
