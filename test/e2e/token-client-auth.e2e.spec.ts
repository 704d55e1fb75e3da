import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually } from '../support/identity-fixtures';

const passphrase = 'correct horse battery staple 42';
const basicChallenge = 'Basic realm="sesame", charset="UTF-8"';
const oauthAnswer = (status: number, error: string, description: string) => ({
  status,
  body: { error, error_description: description },
});

/**
 * Client authentication at the token endpoint (RFC 6749 sections 2.3.1 and 5.2) and PKCE
 * (RFC 7636) for public clients, over HTTP with every process running.
 */
describe('Token endpoint client authentication and PKCE (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let emailDomain: string;
  const callback = 'https://app.pkce.example/callback';
  const email = (name: string) => `${name}@${emailDomain}`;

  beforeAll(async () => {
    system = await sharedSystem();
    emailDomain = `auth-${randomUUID().slice(0, 8)}.example.com`;
    org = await createOrganization(system, `Client auth ${emailDomain}`, { allowed_email_domains: [emailDomain] });
    for (const name of ['conf', 'basic', 'pub', 'refresh'])
      expect(
        (
          await system.request('POST', '/api/v2/password', {
            body: { org_domain: org, user_email: email(name), plain_text: passphrase },
          })
        ).status,
      ).toBe(201);
    expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
    expect((await system.request('POST', `/api/v2/org/${org}/magic-link-connection`, { body: {} })).status).toBe(201);
  });

  const signIn = async (name: string, extra: Record<string, unknown> = {}) => {
    const answer = await system.request('POST', '/api/v2/password-challenge', {
      body: { org_domain: org, user_email: email(name), plain_text: passphrase, ...extra },
    });
    expect(answer.status).toBe(200);
    return answer.body.code as string;
  };
  const token = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    system.request('POST', '/oauth/token', { token: null, headers, form: new URLSearchParams(fields).toString() });
  const basic = (key: ApiKey, secret = key.clientSecret) =>
    `Basic ${Buffer.from(`${encodeURIComponent(key.clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  describe('a confidential client', () => {
    it('cannot exchange a code with its client_id alone: 401 invalid_client', async () => {
      const code = await signIn('conf');
      const answer = await token({ grant_type: 'authorization_code', code, client_id: system.apiKey.clientId });
      expect(answer).toMatchObject(
        oauthAnswer(401, 'invalid_client', 'Client authentication failed: send client_secret, or use PKCE'),
      );
      expect(answer.headers.get('www-authenticate')).toBe(basicChallenge);
      expect(await token({ grant_type: 'authorization_code', code })).toMatchObject(
        oauthAnswer(401, 'invalid_client', 'Client authentication failed: send client_secret, or use PKCE'),
      );
      // Refused before the code was spent: the right client still gets its tokens.
      const body = { grant_type: 'authorization_code', code, client_id: system.apiKey.clientId };
      expect(await token({ ...body, client_secret: system.apiKey.clientSecret })).toMatchObject({ status: 200 });
    });

    it('authenticates with HTTP Basic; a wrong or malformed one is 401 with a Basic challenge', async () => {
      const code = await signIn('basic');
      const wrong = await token({ grant_type: 'authorization_code', code }, { authorization: basic(system.apiKey, 'wrong') });
      expect(wrong).toMatchObject(oauthAnswer(401, 'invalid_client', 'Client authentication failed'));
      expect(wrong.headers.get('www-authenticate')).toBe(basicChallenge);
      const malformed = await token({ grant_type: 'authorization_code', code }, { authorization: 'Basic %%%' });
      expect(malformed).toMatchObject(oauthAnswer(401, 'invalid_client', 'Malformed HTTP Basic client credentials'));
      expect(malformed.headers.get('www-authenticate')).toBe(basicChallenge);
      expect(
        await token(
          { grant_type: 'authorization_code', code, client_secret: system.apiKey.clientSecret },
          { authorization: basic(system.apiKey) },
        ),
      ).toMatchObject(
        oauthAnswer(
          400,
          'invalid_request',
          'Send the client credentials once: HTTP Basic or client_id and client_secret in the body',
        ),
      );
      const production = system.createApiKey('production');
      expect(await token({ grant_type: 'authorization_code', code }, { authorization: basic(production) })).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'The authorization code was issued to another client'),
      );
      const tokens = await token({ grant_type: 'authorization_code', code }, { authorization: basic(system.apiKey) });
      expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', refresh_token: expect.any(String) } });
    });

    it('refreshes only with its client authentication (RFC 9700 section 4.14.2)', async () => {
      const code = await signIn('refresh');
      const tokens = await token({ grant_type: 'authorization_code', code }, { authorization: basic(system.apiKey) });
      const refresh = { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string };
      const anonymous = await token({ ...refresh, client_id: system.apiKey.clientId });
      expect(anonymous).toMatchObject(
        oauthAnswer(
          401,
          'invalid_client',
          'Client authentication failed: this refresh token was issued to an authenticated client',
        ),
      );
      expect(await token(refresh, { authorization: basic(system.createApiKey('sandbox')) })).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'The refresh token was issued to another client'),
      );
      expect(await token(refresh, { authorization: basic(system.apiKey) })).toMatchObject({ status: 200 });
    });
  });

  describe('a public client with PKCE (S256)', () => {
    // The verifier and its challenge are computed here with node:crypto, independently of the service.
    const verifier = randomBytes(64).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');

    it('refuses plain, a missing method and a malformed challenge: 422 field errors', async () => {
      const answer = (extra: Record<string, unknown>) =>
        system.request('POST', '/api/v2/password-challenge', {
          body: { org_domain: org, user_email: email('pub'), plain_text: passphrase, ...extra },
        });
      expect(await answer({ code_challenge: challenge, code_challenge_method: 'plain' })).toMatchObject({
        status: 422,
        body: { errors: { code_challenge_method: ['must be S256 (plain is not supported)'] } },
      });
      expect(await answer({ code_challenge: challenge })).toMatchObject({
        status: 422,
        body: { errors: { code_challenge_method: ['is required with code_challenge: S256'] } },
      });
      expect(await answer({ code_challenge: 'short', code_challenge_method: 'S256' })).toMatchObject({
        status: 422,
        body: {
          errors: { code_challenge: ['must be the base64url SHA-256 of the code_verifier (43 characters, no padding)'] },
        },
      });
      expect(
        await system.request('POST', '/api/v2/magic-link-challenge', {
          body: { email: email('pub'), redirect_uri: callback, code_challenge: challenge, code_challenge_method: 'plain' },
        }),
      ).toMatchObject({ status: 422, body: { errors: { code_challenge_method: ['must be S256 (plain is not supported)'] } } });
    });

    it('exchanges a password code with client_id and code_verifier, without a secret, and refreshes by rotation', async () => {
      const code = await signIn('pub', { code_challenge: challenge, code_challenge_method: 'S256' });
      const exchange = (fields: Record<string, string>) =>
        token({ grant_type: 'authorization_code', code, client_id: system.apiKey.clientId, ...fields });
      expect(await exchange({})).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'code_verifier is required: the authorization code was issued with a code_challenge'),
      );
      expect(await exchange({ code_verifier: randomBytes(64).toString('base64url') })).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'code_verifier does not match the code_challenge of the authorization code'),
      );
      expect(await exchange({ code_verifier: 'too-short' })).toMatchObject(
        oauthAnswer(400, 'invalid_request', 'code_verifier must be 43 to 128 characters among A-Z a-z 0-9 - . _ ~ (RFC 7636)'),
      );
      const tokens = await exchange({ code_verifier: verifier });
      expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', refresh_token: expect.any(String) } });
      const jwks = createRemoteJWKSet(new URL(`${system.baseUrl}/t/${org}/.well-known`));
      const { payload } = await jwtVerify(tokens.body.id_token, jwks, {
        issuer: `${system.baseUrl}/t/${org}`,
        audience: system.apiKey.clientId,
      });
      expect(payload).toMatchObject({ email: email('pub'), amr: ['password'] });

      const refreshed = await token({
        grant_type: 'refresh_token',
        refresh_token: tokens.body.refresh_token,
        client_id: system.apiKey.clientId,
      });
      expect(refreshed).toMatchObject({ status: 200, body: { refresh_token: expect.any(String) } });
      expect(
        await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: system.apiKey.clientId }),
      ).toMatchObject(oauthAnswer(400, 'invalid_grant', 'The refresh token is invalid, expired or revoked'));
    });

    it('exchanges a magic-link code with its code_verifier; a code without challenge refuses a verifier', async () => {
      const answer = await system.request('POST', '/api/v2/magic-link-challenge', {
        body: { email: email('pub'), redirect_uri: callback, code_challenge: challenge, code_challenge_method: 'S256' },
      });
      expect(answer.status).toBe(201);
      const pkce = { grant_type: 'authorization_code', client_id: system.apiKey.clientId, code_verifier: verifier };
      expect(await token({ ...pkce, code: answer.body.code })).toMatchObject({ status: 200 });

      const plain = await system.request('POST', '/api/v2/magic-link-challenge', {
        body: { email: email('pub'), redirect_uri: callback },
      });
      expect(await token({ ...pkce, code: plain.body.code })).toMatchObject(
        oauthAnswer(
          400,
          'invalid_grant',
          'code_verifier was sent but the authorization code was issued without a code_challenge',
        ),
      );
    });
  });

  describe("the organization's sign-in activity", () => {
    /** The events of `codes` about the user in the organization's feed, once there are `count` of them. */
    const feed = async (organizationId: string, userId: string, codes: string, count: number) => {
      const query = `/api/v2/events?organization_id=${organizationId}&events=${codes}&limit=100`;
      const about = async () =>
        ((await system.request('GET', query)).body.data as { data: { user_id?: string } }[]).filter(
          (event) => event.data.user_id === userId,
        );
      await eventually(async () => (await about()).length >= count, 30_000);
      return about();
    };
    const refused = (code: string, reason: string, method: string, userId: string, organizationId: string) => ({
      id: expect.any(String),
      code,
      data: { organization_domain: org, user_id: userId, method, client_id: system.apiKey.clientId, reason },
      organization_id: organizationId,
      organization_domain: org,
      environment: 'sandbox',
      actor: { type: 'api_key', id: system.apiKey.clientId, ip: '127.0.0.1', user_agent: 'node' },
      occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      description: expect.any(String),
    });

    it('lists the refused exchanges of its codes in GET /api/v2/events, by method and reason, without a secret', async () => {
      const organization = await system.request('GET', `/api/v2/organizations/${org}`);
      const organizationId = organization.body.id as string;
      const client = { client_id: system.apiKey.clientId, client_secret: system.apiKey.clientSecret };
      const password = { org_domain: org, user_email: email('activity'), plain_text: passphrase };
      expect((await system.request('POST', '/api/v2/password', { body: password })).status).toBe(201);
      // A password code: the wrong redirect URI, then used twice (the refusals answer as they always did).
      const code = await signIn('activity');
      expect(
        await token({ grant_type: 'authorization_code', code, redirect_uri: 'https://evil.example/cb', ...client }),
      ).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'redirect_uri does not match the one the authorization code was issued for'),
      );
      const signedIn = await token({ grant_type: 'authorization_code', code, ...client });
      expect(signedIn.status).toBe(200);
      const userId = decodeJwt(signedIn.body.id_token as string).sub as string;
      expect(await token({ grant_type: 'authorization_code', code, ...client })).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'The authorization code is invalid, expired or already used'),
      );
      // A magic link used twice.
      const link = await system.request('POST', '/api/v2/magic-link-challenge', {
        body: { email: email('activity'), redirect_uri: callback },
      });
      expect(await token({ grant_type: 'authorization_code', code: link.body.code, ...client })).toMatchObject({ status: 200 });
      expect(await token({ grant_type: 'authorization_code', code: link.body.code, ...client })).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'The authorization code is invalid, expired or already used'),
      );
      // An unknown code names no organization: it is refused as before and recorded nowhere.
      expect(await token({ grant_type: 'authorization_code', code: 'not-a-code', ...client })).toMatchObject(
        oauthAnswer(400, 'invalid_grant', 'The authorization code is invalid, expired or already used'),
      );

      expect(await feed(organizationId, userId, 'authorization_code.exchange.failed', 2)).toEqual([
        refused('authorization_code.exchange.failed', 'redirect_uri_mismatch', 'password', userId, organizationId),
        refused('authorization_code.exchange.failed', 'already_used', 'password', userId, organizationId),
      ]);
      expect(await feed(organizationId, userId, 'magic_link.challenge.*', 3)).toEqual([
        expect.objectContaining({ code: 'magic_link.challenge.created' }),
        expect.objectContaining({ code: 'magic_link.challenge.succeeded' }),
        refused('magic_link.challenge.failed', 'already_used', 'magic_link', userId, organizationId),
      ]);
      const listed = JSON.stringify(
        (await system.request('GET', `/api/v2/events?organization_id=${organizationId}&limit=100`)).body,
      );
      for (const secret of [code, link.body.code as string, system.apiKey.clientSecret]) expect(listed).not.toContain(secret);
    });
  });
});
