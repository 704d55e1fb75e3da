import { randomUUID } from 'node:crypto';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { logLinesWith, processLogs } from '../support/process-logs';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';

const passphrase = 'correct horse battery staple 42';
const invalidGrant = (description: string) => ({ status: 400, body: { error: 'invalid_grant', error_description: description } });
const usedCode = invalidGrant('The authorization code is invalid, expired or already used');
const usedRefresh = invalidGrant('The refresh token is invalid, expired or revoked');
const unknownPasswordCode = {
  status: 422,
  body: {
    error: {
      type: 'unknown_password_code',
      message: 'The provided password_code is not valid...',
      doc_urls: ['http://localhost:8000/password'],
    },
  },
};

describe('Password sign-in (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let emailDomain: string;
  const email = (name: string) => `${name}@${emailDomain}`;
  /** The registered redirect URIs of the sandbox; reset links may only point there (the first is the default). */
  const resetPage = 'https://app.example.com/reset-password';
  const welcomePage = 'https://app.example.com/reset';
  beforeAll(async () => {
    system = await System.start();
    emailDomain = `pw-${randomUUID().slice(0, 8)}.example.com`;
    org = await createOrganization(system, `Password ${emailDomain}`, { allowed_email_domains: [emailDomain] });
    for (const url of [resetPage, welcomePage])
      expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url } })).status).toBe(201);
  });
  afterAll(async () => {
    await system?.stop();
  });

  const post = (path: string, body: Record<string, unknown>) => system.request('POST', path, { body });
  /** The token endpoint, as the integrator's backend calls it: authenticated with its API key unless the body says otherwise. */
  const token = (body: Record<string, string>) =>
    system.request('POST', '/oauth/token', {
      token: null,
      form: new URLSearchParams({
        client_id: system.apiKey.clientId,
        client_secret: system.apiKey.clientSecret,
        ...body,
      }).toString(),
    });
  const challenge = (user_email: string, plain_text: string, extra: Record<string, unknown> = {}) =>
    post('/api/v2/password-challenge', { org_domain: org, user_email, plain_text, ...extra });

  describe('connection', () => {
    const path = () => `/api/v2/org/${org}/password-connection`;

    it('has defaults, is created once, and checks its lengths', async () => {
      const defaults = await system.request('GET', path());
      expect(defaults).toMatchObject({
        status: 200,
        body: { active: true, plain_text_min_length: 8, plain_text_max_length: 128, pepper_rotation_period: 86_400 },
      });
      const { id } = defaults.body;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await post(path(), { plain_text_min_length: 10, plain_text_max_length: 64 })).toEqual(
        expect.objectContaining({
          status: 201,
          body: { id, active: true, plain_text_min_length: 10, plain_text_max_length: 64, pepper_rotation_period: 86_400 },
        }),
      );
      expect(await post(path(), {})).toMatchObject({
        status: 409,
        body: { error: { type: 'password_connection_already_exists', message: 'A password connection already exists' } },
      });
      expect(await system.request('PUT', path(), { body: { plain_text_min_length: 70 } })).toMatchObject({
        status: 422,
        body: { errors: { plain_text_min_length: ['must be lower than plain_text_max_length'] } },
      });
      expect(await system.request('GET', path())).toMatchObject({ body: { id, plain_text_min_length: 10 } });
      expect(await system.request('PUT', path(), { body: { active: true } })).toMatchObject({ status: 200, body: { id } });
    });

    // Cryptr's SDKs read a create answer without an id as a failure: every connection answers one.
    it('answers a stable id of its own per organization and environment, created from a form or by an update', async () => {
      const other = await createOrganization(system, `Password id ${randomUUID().slice(0, 8)}`);
      const otherPath = `/api/v2/org/${other}/password-connection`;
      const before = (await system.request('GET', otherPath)).body.id;
      expect(before).toEqual(expect.any(String));
      expect(before).not.toBe((await system.request('GET', path())).body.id);
      const created = await system.request('POST', otherPath, {
        form: '__type__=PasswordConnection&plain_text_min_length=9&plain_text_max_length=99',
      });
      expect(created).toMatchObject({
        status: 201,
        body: { id: before, active: true, plain_text_min_length: 9, plain_text_max_length: 99, pepper_rotation_period: 86_400 },
      });
      expect((await system.request('GET', otherPath)).body).toEqual(created.body);

      // The production environment has its own organization of that domain, and its own connection.
      const production = system.createApiKey('production');
      const otherName = `Password id ${other}`;
      const third = await createOrganization(system, otherName);
      expect(await createOrganization(system, otherName, {}, production)).toBe(third);
      const inProduction = await system.request('GET', `/api/v2/org/${third}/password-connection`, { key: production });
      expect(inProduction).toMatchObject({ status: 200, body: { id: expect.any(String), active: true } });

      const thirdPath = `/api/v2/org/${third}/password-connection`;
      const thirdId = (await system.request('GET', thirdPath)).body.id;
      const updated = await system.request('PUT', thirdPath, { form: 'active=false' });
      expect(updated).toMatchObject({ status: 200, body: { id: thirdId, active: false } });
      expect(new Set([before, thirdId, inProduction.body.id, (await system.request('GET', path())).body.id]).size).toBe(4);
    });

    it('answers 404 for an unknown organization and 401 without an API key', async () => {
      expect(await system.request('GET', '/api/v2/org/no-such-org/password-connection')).toEqual(
        expect.objectContaining({ status: 404, body: notFound }),
      );
      expect(await system.request('GET', path(), { token: null })).toEqual(
        expect.objectContaining({ status: 401, body: unauthorized }),
      );
    });
  });

  describe('passwords', () => {
    it('refuses short, common, breached and weak passwords, naming the reason', async () => {
      const refuse = async (plain_text: string, message: string) =>
        expect(await post('/api/v2/password', { org_domain: org, user_email: email('weak'), plain_text })).toEqual(
          expect.objectContaining({ status: 422, body: { errors: { plain_text: [message] } } }),
        );
      await refuse('Sh0rt!', 'is too short (minimum is 10 characters)');
      await refuse('password123', 'is among the most common passwords');
      await refuse('1qaz2wsx3edc4rfv', 'has appeared in a data breach');
      await refuse('aaaaaaaaaaaaaaa', 'is too weak: it would be guessed quickly');
    });

    it('sets a password by email, creating the user, and needs org_domain only when the email domain does not tell', async () => {
      const { status, body } = await post('/api/v2/password', { user_email: email('ada'), plain_text: passphrase });
      expect(status).toBe(201);
      expect(body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        code: null,
      });
      expect((await system.request('GET', `/api/v2/org/${org}/users/${email('ada')}`)).body.id).toBe(body.user_id);
      expect(await post('/api/v2/password', { user_email: 'ada@nowhere.example.org', plain_text: passphrase })).toEqual(
        expect.objectContaining({
          status: 422,
          body: { errors: { org_domain: ['is required: no organization allows the domain of this email'] } },
        }),
      );
      expect(await post('/api/v2/password', { plain_text: passphrase, org_domain: org })).toMatchObject({
        status: 422,
        body: { errors: { user_email: ["can't be blank"] } },
      });
    });
  });

  describe('privileges of POST /api/v2/password', () => {
    const signInOnly = () => system.createApiKey('sandbox', ['authentications:write']);
    const setWith = (key: ApiKey, user_email: string, plain_text: string) =>
      system.request('POST', '/api/v2/password', { key, body: { org_domain: org, user_email, plain_text } });
    const userOf = (address: string) => system.request('GET', `/api/v2/org/${org}/users/${address}`);

    it('a key with authentications:write alone creates no user, through either operation (401, nothing created)', async () => {
      const key = signInOnly();
      expect(await setWith(key, email('intruder'), passphrase)).toEqual(
        expect.objectContaining({ status: 401, body: unauthorized }),
      );
      const request = await system.request('POST', '/api/v2/password-request', {
        key,
        body: { org_domain: org, user_email: email('intruder'), find_or_create_user: true },
      });
      expect(request).toEqual(expect.objectContaining({ status: 401, body: unauthorized }));
      expect(await userOf(email('intruder'))).toEqual(expect.objectContaining({ status: 404, body: notFound }));
      expect((await system.request('GET', `/dev/outbox?to=${email('intruder')}`, { token: null })).body.data).toEqual([]);
    });

    it("replaces a user's password only with a password_code or a key holding passwords:write (401 otherwise, nothing changes)", async () => {
      const victim = email('victim');
      expect((await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: victim } })).status).toBe(201);
      // A first password: authentications:write is enough.
      expect(await setWith(signInOnly(), victim, passphrase)).toMatchObject({ status: 201 });
      const takeover = 'an attacker picked this passphrase 7';
      // The system's key holds every default scope, which leaves passwords:write out: it is asked for by name.
      expect(system.apiKey.scopes).not.toContain('passwords:write');
      for (const key of [signInOnly(), system.apiKey])
        expect(await setWith(key, victim, takeover)).toEqual(expect.objectContaining({ status: 401, body: unauthorized }));
      expect((await challenge(victim, takeover)).body).toMatchObject({ 'valid?': false });
      expect((await challenge(victim, passphrase)).body).toMatchObject({ 'valid?': true });

      const administrator = system.createApiKey('sandbox', ['authentications:write', 'passwords:write']);
      expect(await setWith(administrator, victim, takeover)).toMatchObject({ status: 201, body: { code: null } });
      expect((await challenge(victim, passphrase)).body).toMatchObject({ 'valid?': false });
      expect((await challenge(victim, takeover)).body).toMatchObject({ 'valid?': true });
    });
  });

  describe('challenge and tokens', () => {
    it('answers a one-time code, exchanged for tokens verified with the published JWKS', async () => {
      await system.request('POST', '/api/v2/tokens/user-metakeys', { body: { name: 'plan' } });
      const created = await post('/api/v2/password', { org_domain: org, user_email: email('grace'), plain_text: passphrase });
      await system.request('PUT', `/api/v2/org/${org}/users/${created.body.user_id}/add-metadata`, {
        body: { key: 'plan', value: 'gold' },
      });

      const { status, body } = await challenge(email('grace'), passphrase, { nonce: 'n-0S6_WzA2Mj' });
      expect(status).toBe(200);
      expect(body).toEqual({
        code: expect.stringMatching(/^[\w-]{43}$/),
        error: null,
        expired_at: expect.any(String),
        password_id: created.body.id,
        renew_password: false,
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user_id: created.body.user_id,
        'valid?': true,
      });
      const tokens = await token({ grant_type: 'authorization_code', code: body.code });
      expect(tokens).toMatchObject({
        status: 200,
        body: { expires_in: 36_000, scope: 'openid email profile', token_type: 'Bearer', refresh_token: expect.any(String) },
      });
      const jwks = createRemoteJWKSet(new URL(`${system.baseUrl}/t/${org}/.well-known`));
      const issuer = `${system.baseUrl}/t/${org}`;
      const { payload } = await jwtVerify(tokens.body.id_token, jwks, { issuer, audience: system.apiKey.clientId });
      expect(payload).toMatchObject({
        sub: created.body.user_id,
        email: email('grace'),
        email_verified: false,
        nonce: 'n-0S6_WzA2Mj',
        amr: ['password'],
        plan: 'gold',
      });
      await jwtVerify(tokens.body.access_token, jwks, { issuer, audience: system.apiKey.clientId });
      const refreshed = await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token });
      expect(refreshed).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
      expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
      expect(await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token })).toMatchObject(usedRefresh);
      expect(await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).toMatchObject(
        usedRefresh,
      );
      expect(await token({ grant_type: 'authorization_code', code: body.code })).toMatchObject(usedCode);
      expect(await token({ grant_type: 'authorization_code', code: 'unknown' })).toMatchObject(usedCode);
    });

    it('revokes the tokens of a code presented twice, and binds a code to its redirect URI', async () => {
      await post('/api/v2/password', { org_domain: org, user_email: email('twice'), plain_text: passphrase });
      const { code } = (await challenge(email('twice'), passphrase, { redirect_uri: 'https://app.example.com/cb' })).body;
      expect(await token({ grant_type: 'authorization_code', code, redirect_uri: 'https://evil.example.com/cb' })).toMatchObject(
        invalidGrant('redirect_uri does not match the one the authorization code was issued for'),
      );
      const client = { redirect_uri: 'https://app.example.com/cb' };
      expect(await token({ grant_type: 'authorization_code', code, ...client, client_secret: 'wrong' })).toMatchObject({
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client authentication failed' },
      });
      const first = await token({ grant_type: 'authorization_code', code, ...client });
      expect(first.status).toBe(200);
      expect(await token({ grant_type: 'authorization_code', code })).toMatchObject(usedCode);
      expect(await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).toMatchObject(usedRefresh);
    });

    it('refuses wrong passwords and unknown users alike, then delays further attempts', async () => {
      await post('/api/v2/password', { org_domain: org, user_email: email('locked'), plain_text: passphrase });
      for (const user of [email('locked'), email('ghost')]) {
        for (let attempt = 0; attempt < 3; attempt++)
          expect((await challenge(user, 'wrong horse battery staple')).body).toEqual({
            code: null,
            error: 'invalid_credentials',
            expired_at: null,
            password_id: null,
            renew_password: false,
            request_id: expect.any(String),
            user_id: null,
            'valid?': false,
          });
        expect((await challenge(user, passphrase)).body).toMatchObject({
          'valid?': false,
          error: 'too_many_attempts',
          code: null,
        });
      }
    });

    it('refuses every challenge while the connection is inactive', async () => {
      await post('/api/v2/password', { org_domain: org, user_email: email('off'), plain_text: passphrase });
      await system.request('PUT', `/api/v2/org/${org}/password-connection`, { body: { active: false } });
      expect((await challenge(email('off'), passphrase)).body).toMatchObject({
        'valid?': false,
        error: 'inactive_password_connection',
      });
      await system.request('PUT', `/api/v2/org/${org}/password-connection`, { body: { active: true } });
      expect((await challenge(email('off'), passphrase)).body).toMatchObject({ 'valid?': true });
    });
  });

  describe('reset by email', () => {
    it('mails a link with a one-time password code, which sets the new password and answers an authorization code', async () => {
      await post('/api/v2/password', { org_domain: org, user_email: email('reset'), plain_text: passphrase });
      const requested = await post('/api/v2/password-request', {
        org_domain: org,
        user_email: email('reset'),
        redirect_uri: 'https://app.example.com/reset-password',
      });
      expect(requested).toMatchObject({
        status: 201,
        body: {
          user_id: expect.any(String),
          redirect_uri: 'https://app.example.com/reset-password',
          magic_link: expect.any(String),
        },
      });
      const mail = (await system.request('GET', `/dev/outbox?to=${email('reset')}`, { token: null })).body.data.at(-1);
      expect(mail.links[0].url).toBe(requested.body.magic_link);
      const link = new URL(mail.links[0].url);
      expect(link.origin + link.pathname).toBe('https://app.example.com/reset-password');
      const passwordCode = link.searchParams.get('password_code') as string;
      const userPath = `/api/v2/org/${org}/users/${requested.body.user_id}`;
      expect((await system.request('GET', userPath)).body).toMatchObject({ email_verified: false });

      const newPassphrase = 'purple elephants juggle quietly at noon';
      expect((await post('/api/v2/password', { password_code: passwordCode, plain_text: 'password123' })).status).toBe(422);
      const set = await post('/api/v2/password', { password_code: passwordCode, plain_text: newPassphrase });
      expect(set).toMatchObject({
        status: 201,
        body: { user_id: requested.body.user_id, code: expect.stringMatching(/^[\w-]{43}$/) },
      });
      // The sandbox answered the reset link to the API caller too: it proves no mailbox (production
      // verifies the address, see the password unit tests), in identity as in the ID token.
      expect((await system.request('GET', userPath)).body).toMatchObject({ email_verified: false });
      const tokens = await token({ grant_type: 'authorization_code', code: set.body.code });
      expect(tokens.status).toBe(200);
      const { payload } = await jwtVerify(
        tokens.body.id_token,
        createRemoteJWKSet(new URL(`${system.baseUrl}/t/${org}/.well-known`)),
        {
          issuer: `${system.baseUrl}/t/${org}`,
          audience: system.apiKey.clientId,
        },
      );
      expect(payload).toMatchObject({ email: email('reset'), email_verified: false });
      expect(await post('/api/v2/password', { password_code: passwordCode, plain_text: newPassphrase })).toMatchObject(
        unknownPasswordCode,
      );
      expect(await post('/api/v2/password', { password_code: 'nope', plain_text: newPassphrase })).toMatchObject(
        unknownPasswordCode,
      );
      expect((await challenge(email('reset'), passphrase)).body).toMatchObject({ 'valid?': false });
      expect((await challenge(email('reset'), newPassphrase)).body).toMatchObject({ 'valid?': true });

      // The processes log the email (recipient, template, body), never its password_code or the code it became.
      const logged = (await logLinesWith(system, 'mail kept in the local outbox')).filter(
        (line) => line.mail?.to === email('reset'),
      );
      expect(logged.at(-1)?.mail).toMatchObject({
        template: 'password-reset',
        body: expect.stringContaining(`${resetPage}?password_code=[redacted]&request_id=`),
      });
      const logs = processLogs(system);
      for (const secret of [passwordCode, set.body.code, newPassphrase, passphrase]) expect(logs).not.toContain(secret);
    });

    it('sends the link to a registered redirect URI only, the default one when none is given (422 otherwise, nothing sent)', async () => {
      await post('/api/v2/password', { org_domain: org, user_email: email('redirected'), plain_text: passphrase });
      const outbox = async () =>
        (await system.request('GET', `/dev/outbox?to=${email('redirected')}`, { token: null })).body.data as {
          links: { url: string }[];
        }[];
      for (const redirect_uri of ['https://evil.example.com/reset-password', `${resetPage}/../../steal`])
        expect(
          await post('/api/v2/password-request', { org_domain: org, user_email: email('redirected'), redirect_uri }),
        ).toEqual(
          expect.objectContaining({ status: 422, body: { errors: { redirect_uri: ['is not a registered redirect URI'] } } }),
        );
      expect(await outbox()).toEqual([]);
      const byDefault = await post('/api/v2/password-request', { org_domain: org, user_email: email('redirected') });
      expect(byDefault).toMatchObject({ status: 201, body: { redirect_uri: resetPage } });
      const named = await post('/api/v2/password-request', {
        org_domain: org,
        user_email: email('redirected'),
        redirect_uri: welcomePage,
      });
      expect(named).toMatchObject({ status: 201, body: { redirect_uri: welcomePage } });
      expect((await outbox()).map((mail) => new URL(mail.links[0]?.url as string).pathname)).toEqual([
        '/reset-password',
        '/reset',
      ]);
    });

    it('answers the reset link to a sandbox key only: with a production key it reaches the user by email alone', async () => {
      const production = system.createApiKey('production');
      const as = (method: string, path: string, body?: unknown) => system.request(method, path, { key: production, body });
      const domain = `pw-prod-${randomUUID().slice(0, 8)}.example.com`;
      const created = await as('POST', '/api/v2/organizations', {
        name: `Production ${domain}`,
        allowed_email_domains: [domain],
      });
      expect(created.status).toBe(201);
      expect((await as('POST', '/api/v2/redirect_uris', { url: 'https://app.example.com/prod-reset' })).status).toBe(201);
      const user = `grace@${domain}`;
      expect((await as('POST', `/api/v2/org/${created.body.domain}/users`, { email: user })).status).toBe(201);
      const requested = await as('POST', '/api/v2/password-request', { org_domain: created.body.domain, user_email: user });
      expect(requested).toMatchObject({
        status: 201,
        body: { user_id: expect.any(String), magic_link: null, redirect_uri: 'https://app.example.com/prod-reset' },
      });
      const mail = (await system.request('GET', `/dev/outbox?to=${user}`, { token: null })).body.data.at(-1);
      const passwordCode = new URL(mail.links[0].url).searchParams.get('password_code') as string;
      expect(passwordCode).toMatch(/^[\w-]{43}$/);
      expect(JSON.stringify(requested.body)).not.toContain(passwordCode);
    });

    it('sends nothing to an unknown email, unless asked to create the user', async () => {
      const body = { org_domain: org, user_email: email('newcomer'), redirect_uri: 'https://app.example.com/reset' };
      expect(await post('/api/v2/password-request', body)).toMatchObject({
        status: 201,
        body: { user_id: null, magic_link: null },
      });
      expect((await system.request('GET', `/dev/outbox?to=${email('newcomer')}`, { token: null })).body.data).toEqual([]);
      const created = await post('/api/v2/password-request', { ...body, find_or_create_user: true });
      expect(created).toMatchObject({ status: 201, body: { user_id: expect.any(String), magic_link: expect.any(String) } });
      expect((await system.request('GET', `/dev/outbox?to=${email('newcomer')}`, { token: null })).body.data).toHaveLength(1);
    });
  });

  describe('organization of a sign-in', () => {
    it('needs org_domain when several organizations allow the email domain', async () => {
      await createOrganization(system, `Password twin ${emailDomain}`, { allowed_email_domains: [emailDomain] });
      expect(await post('/api/v2/password-challenge', { user_email: email('ada'), plain_text: passphrase })).toEqual(
        expect.objectContaining({
          status: 422,
          body: { errors: { org_domain: ['is required: several organizations allow the domain of this email'] } },
        }),
      );
      expect((await challenge(email('ada'), passphrase)).body).toMatchObject({ 'valid?': true });
    });
  });
});
