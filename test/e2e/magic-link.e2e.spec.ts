import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { join } from 'node:path';
import { logLinesWith, processLogs } from '../support/process-logs';
import { System, repoRoot } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';

const callback = 'https://app.piedpiper.example/auth/callback';

describe('Magic link over HTTP (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let richardId: string;
  const connection = () => `/api/v2/org/${org}/magic-link-connection`;
  const challenge = (body: Record<string, unknown>, key?: ApiKey) =>
    system.request('POST', '/api/v2/magic-link-challenge', { body, ...(key ? { key } : {}) });
  const outbox = async (to: string) =>
    (await system.request('GET', `/dev/outbox?to=${encodeURIComponent(to)}`, { token: null })).body.data as {
      subject: string;
      text: string;
      html?: string;
      links: { rel: string; url: string }[];
    }[];
  const exchange = (code: string, key: ApiKey = system.apiKey) =>
    system.request('POST', '/oauth/token', {
      token: null,
      form: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: key.clientId,
        client_secret: key.clientSecret,
      }).toString(),
    });

  beforeAll(async () => {
    system = await System.start({ env: { SESAME_MAIL_TEMPLATES_DIR: join(repoRoot, 'test/support/mail-templates') } });
    org = await createOrganization(system, 'Pied Piper', { allowed_email_domains: ['piedpiper-ml.com'] });
    expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
    const user = await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: 'richard@piedpiper-ml.com' } });
    richardId = user.body.id;
  });
  afterAll(async () => {
    await system?.stop();
  });

  describe('connection', () => {
    it('does not exist until created: 404', async () => {
      expect(await system.request('GET', connection())).toMatchObject({ status: 404, body: notFound });
      expect(await system.request('PUT', connection(), { body: { active: false } })).toMatchObject({
        status: 404,
        body: notFound,
      });
    });

    it('refuses a challenge while the organization has no active connection', async () => {
      expect(await challenge({ email: 'richard@piedpiper-ml.com', redirect_uri: callback })).toMatchObject({
        status: 422,
        body: { errors: { org_domain: ['has no active magic link connection'] } },
      });
    });

    it('is created once: active, find_or_create_user false, no template by default', async () => {
      const created = await system.request('POST', connection(), { body: {} });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        active: true,
        find_or_create_user: false,
        sign_in_template_id: null,
      });
      expect(await system.request('POST', connection(), { body: {} })).toMatchObject({
        status: 422,
        body: { errors: { org_domain: ['already has a magic link connection'] } },
      });
      expect(await system.request('PUT', connection(), { form: 'sign_in_template_id=welcome-v9' })).toMatchObject({
        status: 422,
        body: { errors: { sign_in_template_id: ['is not a mail template: no welcome-v9.txt in the mail template directory'] } },
      });
      const updated = await system.request('PUT', connection(), { form: 'sign_in_template_id=welcome-v2' });
      expect(updated).toMatchObject({
        status: 200,
        body: { id: created.body.id, active: true, sign_in_template_id: 'welcome-v2' },
      });
      expect((await system.request('GET', connection())).body).toEqual(updated.body);
      expect(await system.request('GET', '/api/v2/org/no-such-org/magic-link-connection')).toMatchObject({
        status: 404,
        body: notFound,
      });
      expect(await system.request('GET', connection(), { token: null })).toMatchObject({ status: 401, body: unauthorized });
    });
  });

  describe('sign-in', () => {
    let code: string;

    it('emails a one-time link to the redirect URI; the code is exchanged for tokens checked against the JWKS', async () => {
      const answer = await challenge({ email: 'richard@piedpiper-ml.com', redirect_uri: callback });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({
        code: expect.any(String),
        email_address: 'richard@piedpiper-ml.com',
        find_or_create_user: false,
        magic_link: expect.stringContaining(`${callback}?code=`),
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      const mail = (await outbox('richard@piedpiper-ml.com')).at(-1);
      const link = mail?.links.find((item) => item.rel === 'magic-link')?.url as string;
      expect(link).toBe(answer.body.magic_link);
      // The connection's sign_in_template_id (test/support/mail-templates/welcome-v2.*) wrote the email.
      expect(mail).toMatchObject({
        subject: 'Pied Piper: your sign-in link',
        text: `Hello richard@piedpiper-ml.com,\n\nSign in to Pied Piper with ${link} within 10 minutes.\n`,
        html: expect.stringContaining(`<a href="${link.replace(/&/g, '&amp;')}">Sign in to Pied Piper</a>`),
      });
      const followed = new URL(link);
      expect(`${followed.origin}${followed.pathname}`).toBe(callback);
      expect(followed.searchParams.get('request_id')).toBe(answer.body.request_id);
      code = followed.searchParams.get('code') as string;
      expect(code).toBe(answer.body.code);

      const tokens = await exchange(code);
      expect(tokens.status).toBe(200);
      expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 36000, refresh_token: expect.any(String) });
      const jwks = createLocalJWKSet(
        (await system.request('GET', '/.well-known/jwks.json', { token: null })).body as JSONWebKeySet,
      );
      const { payload: access } = await jwtVerify(tokens.body.access_token, jwks, { issuer: `${system.baseUrl}/t/${org}` });
      expect(access).toMatchObject({ sub: richardId, jtt: 'access', env: 'sandbox' });
      const { payload: id } = await jwtVerify(tokens.body.id_token, jwks, { audience: system.apiKey.clientId });
      expect(id).toMatchObject({
        sub: richardId,
        email: 'richard@piedpiper-ml.com',
        // The sandbox answered the code to the API caller: its exchange proves no mailbox.
        email_verified: false,
        amr: expect.arrayContaining(['magic_link']),
      });
      expect((await system.request('GET', `/api/v2/org/${org}/users/${richardId}`)).body.email_verified).toBe(false);

      // The processes log the email (recipient, template, body), never its code, nor the tokens it became.
      const logged = (await logLinesWith(system, 'mail kept in the local outbox')).filter(
        (line) => line.mail?.to === 'richard@piedpiper-ml.com',
      );
      expect(logged.at(-1)?.mail).toMatchObject({
        template: 'magic-link',
        body: expect.stringContaining(`${callback}?code=[redacted]&request_id=${answer.body.request_id}`),
      });
      const logs = processLogs(system);
      for (const secret of [code, tokens.body.access_token, tokens.body.refresh_token]) expect(logs).not.toContain(secret);
    });

    it('works once: the same code is refused (invalid_grant); both exchanges count as magic-link sign-ins', async () => {
      expect(await exchange(code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      const metrics = await fetch(system.metricsUrl('auth-methods')).then((response) => response.text());
      expect(metrics).toContain('sesame_sign_ins_total{method="magic_link",outcome="success",process="auth-methods"} 1');
      expect(metrics).toContain('sesame_sign_ins_total{method="magic_link",outcome="failure",process="auth-methods"} 1');
    });

    it('refuses a redirect URI that is not registered', async () => {
      expect(await challenge({ email: 'richard@piedpiper-ml.com', redirect_uri: 'https://evil.example/cb' })).toMatchObject({
        status: 422,
        body: { errors: { redirect_uri: ['is not a registered redirect URI'] } },
      });
    });

    it('answers the same for an unknown email, without sending anything', async () => {
      const answer = await challenge({ email: 'nobody@piedpiper-ml.com', redirect_uri: callback });
      expect(answer).toMatchObject({
        status: 201,
        body: { code: null, magic_link: null, email_address: 'nobody@piedpiper-ml.com' },
      });
      expect(await outbox('nobody@piedpiper-ml.com')).toEqual([]);
    });

    it('creates the user with find_or_create_user', async () => {
      const answer = await challenge({ email: 'gilfoyle@piedpiper-ml.com', redirect_uri: callback, find_or_create_user: true });
      expect(answer).toMatchObject({ status: 201, body: { find_or_create_user: true, code: expect.any(String) } });
      const user = await system.request('GET', `/api/v2/org/${org}/users/gilfoyle@piedpiper-ml.com`);
      expect(user).toMatchObject({ status: 200, body: { email: 'gilfoyle@piedpiper-ml.com' } });
      expect((await exchange(answer.body.code)).status).toBe(200);
    });

    it('needs org_domain when no organization or several allow the email domain', async () => {
      expect(await challenge({ email: 'ada@unknown-domain.example', redirect_uri: callback })).toMatchObject({
        status: 422,
        body: { errors: { org_domain: ['is required: no organization allows the domain of this email'] } },
      });
      const named = await challenge({ email: 'ada@unknown-domain.example', redirect_uri: callback, org_domain: org });
      expect(named).toMatchObject({ status: 201, body: { code: null } });
      expect(await challenge({ email: 'ada@x.example', redirect_uri: callback, org_domain: 'no-such-org' })).toMatchObject({
        status: 404,
        body: notFound,
      });
    });

    it('keeps the code and the link out of the answer in production', async () => {
      const production = system.createApiKey('production');
      expect(await createOrganization(system, 'Pied Piper', { allowed_email_domains: ['piedpiper-ml.com'] }, production)).toBe(
        org,
      );
      await system.request('POST', '/api/v2/redirect_uris', { key: production, body: { url: callback } });
      expect((await system.request('POST', connection(), { key: production, body: {} })).status).toBe(201);
      // In production only a verified domain routes a sign-in by email: the vendor vouches for it.
      const asserted = await system.request('POST', `/api/v2/organizations/${org}/domains/piedpiper-ml.com/assert`, {
        key: production,
      });
      expect(asserted).toMatchObject({ status: 200, body: { status: 'verified', method: 'vendor_assertion' } });
      const answer = await challenge(
        { email: 'prod.user@piedpiper-ml.com', redirect_uri: callback, find_or_create_user: true },
        production,
      );
      expect(answer).toMatchObject({ status: 201, body: { code: null, magic_link: null } });
      const sent = await outbox('prod.user@piedpiper-ml.com');
      expect(sent).toHaveLength(1);
      expect(sent[0]?.links).toEqual([{ rel: 'magic-link', url: expect.stringContaining(`${callback}?code=`) }]);
      // Only the mailbox had the code: its exchange proves the email, and the ID token says so.
      const user = () => system.request('GET', `/api/v2/org/${org}/users/prod.user@piedpiper-ml.com`, { key: production });
      expect((await user()).body.email_verified).toBe(false);
      const code = new URL(sent[0]!.links[0]!.url).searchParams.get('code') as string;
      const tokens = await exchange(code, production);
      expect(tokens.status).toBe(200);
      expect(decodeJwt(tokens.body.id_token)).toMatchObject({ email: 'prod.user@piedpiper-ml.com', email_verified: true });
      expect((await user()).body.email_verified).toBe(true);

      // The address changed after the link was mailed: the link proves the old one, not the new one.
      const mover = await challenge(
        { email: 'prod.mover@piedpiper-ml.com', redirect_uri: callback, find_or_create_user: true },
        production,
      );
      expect(mover.status).toBe(201);
      const moverLink = (await outbox('prod.mover@piedpiper-ml.com'))[0]!.links[0]!.url;
      const moverId = (await system.request('GET', `/api/v2/org/${org}/users/prod.mover@piedpiper-ml.com`, { key: production }))
        .body.id;
      const moved = await system.request('PUT', `/api/v2/org/${org}/users/${moverId}`, {
        key: production,
        body: { email: 'prod.moved@piedpiper-ml.com' },
      });
      expect(moved.status).toBe(200);
      const moverTokens = await exchange(new URL(moverLink).searchParams.get('code') as string, production);
      expect(moverTokens.status).toBe(200);
      expect(decodeJwt(moverTokens.body.id_token)).toMatchObject({ email: 'prod.moved@piedpiper-ml.com', email_verified: false });
    });

    it('refuses a switched-off connection and a missing API key', async () => {
      await system.request('PUT', connection(), { body: { active: false } });
      expect(await challenge({ email: 'richard@piedpiper-ml.com', redirect_uri: callback })).toMatchObject({
        status: 422,
        body: { errors: { org_domain: ['has no active magic link connection'] } },
      });
      expect(await system.request('POST', '/api/v2/magic-link-challenge', { token: null, body: {} })).toMatchObject({
        status: 401,
        body: unauthorized,
      });
    });
  });
});
