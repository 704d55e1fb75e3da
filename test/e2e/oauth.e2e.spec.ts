import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { System, repoRoot } from '../support/system';

const tokenPath = '/oauth/token';

describe('OAuth token endpoint and JWKS (all processes, real NATS)', () => {
  let system: System;
  beforeAll(async () => {
    system = await System.start();
  });
  afterAll(async () => {
    await system?.stop();
  });

  const grant = (
    body: Record<string, string>,
    options: { form?: boolean; path?: string; headers?: Record<string, string> } = {},
  ) =>
    system.request('POST', options.path ?? tokenPath, {
      token: null,
      headers: options.headers,
      ...(options.form ? { form: new URLSearchParams(body).toString() } : { body }),
    });

  const credentials = () => ({ client_id: system.apiKey.clientId, client_secret: system.apiKey.clientSecret });

  it('grants an access token for client credentials sent as a form', async () => {
    const { status, body, headers } = await grant({ grant_type: 'client_credentials', ...credentials() }, { form: true });
    expect(status).toBe(200);
    expect(body).toEqual({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      expires_in: 36_000,
      scope: system.apiKey.scopes.join(' '),
      token_type: 'Bearer',
    });
    expect(headers.get('cache-control')).toBe('no-store');
  });

  it('grants for JSON bodies, HTTP Basic credentials, and at /api/v2/oauth/token', async () => {
    expect((await grant({ grant_type: 'client_credentials', ...credentials() })).status).toBe(200);
    const basic = Buffer.from(`${system.apiKey.clientId}:${system.apiKey.clientSecret}`).toString('base64');
    expect(
      (await grant({ grant_type: 'client_credentials' }, { form: true, headers: { authorization: `Basic ${basic}` } })).status,
    ).toBe(200);
    expect((await grant({ grant_type: 'client_credentials', ...credentials() }, { path: '/api/v2/oauth/token' })).status).toBe(
      200,
    );
  });

  it("grants the API-key token request of Cryptr's Kotlin SDK as it sends it: a form with tenant_domain, at api/v2/oauth/token", async () => {
    const form = new URLSearchParams({ ...credentials(), tenant_domain: 'acme', grant_type: 'client_credentials' }).toString();
    const { status, body } = await system.request('POST', '/api/v2/oauth/token', {
      token: null,
      form,
      headers: { accept: 'application/json' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });
  });

  it('issues an RS256 JWT with the documented claims, verifiable with the published JWKS', async () => {
    const { body } = await grant({ grant_type: 'client_credentials', ...credentials() });
    // `/t/{org}/.well-known/jwks`: the path Cryptr's OmniAuth strategy reads.
    for (const jwksPath of ['/.well-known/jwks.json', '/t/any-org/.well-known', '/t/any-org/.well-known/jwks']) {
      const jwks = (await system.request('GET', jwksPath, { token: null })).body as JSONWebKeySet;
      expect(jwks.keys.length).toBeGreaterThan(0);
      for (const key of jwks.keys) expect(key).not.toHaveProperty('d');
      const { payload, protectedHeader } = await jwtVerify(body.access_token, createLocalJWKSet(jwks), {
        issuer: `${system.baseUrl}/t/sesame`,
        audience: system.baseUrl,
        algorithms: ['RS256'],
      });
      expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: expect.any(String) });
      expect(payload).toMatchObject({
        sub: system.apiKey.clientId,
        cid: system.apiKey.clientId,
        jtt: 'api_key',
        ver: 1,
        tnt: 'sesame',
        env: 'sandbox',
        dbs: 'sandbox',
        scp: system.apiKey.scopes,
        jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect((payload.exp as number) - (payload.iat as number)).toBe(36_000);
    }
  });

  it('narrows the scopes on request and refuses scopes beyond the key', async () => {
    const narrow = await grant({ grant_type: 'client_credentials', scope: 'organizations:read', ...credentials() });
    expect(narrow.body.scope).toBe('organizations:read');
    const write = await system.request('POST', '/api/v2/organizations', {
      token: narrow.body.access_token,
      body: { name: 'Nope' },
    });
    expect(write.status).toBe(401);
    const reader = system.createApiKey('sandbox', ['organizations:read']);
    const beyond = await grant({
      grant_type: 'client_credentials',
      scope: 'organizations:write',
      client_id: reader.clientId,
      client_secret: reader.clientSecret,
    });
    expect(beyond).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope', error_description: 'The requested scope exceeds the scopes of this API key' },
    });
  });

  it("issues API-key tokens for the API's audience only: another audience is 400 invalid_target", async () => {
    const own = await grant({ grant_type: 'client_credentials', audience: system.baseUrl, ...credentials() }, { form: true });
    expect(own.status).toBe(200);
    expect(decodeJwt(own.body.access_token).aud).toBe(system.baseUrl);
    for (const audience of ['https://crm.example.com', `${system.baseUrl}/api`])
      expect(await grant({ grant_type: 'client_credentials', audience, ...credentials() }, { form: true })).toMatchObject({
        status: 400,
        body: {
          error: 'invalid_target',
          error_description: 'The requested audience is not the audience of this API: leave audience out',
        },
      });
  });

  it.each([
    ['a wrong secret', () => ({ grant_type: 'client_credentials', client_id: system.apiKey.clientId, client_secret: 'wrong' })],
    [
      'an unknown client',
      () => ({ grant_type: 'client_credentials', client_id: '0d6cbf4e-2b1e-4f57-9d0b-25c1c0b8e0c1', client_secret: 'x' }),
    ],
    ['a client id that is not a uuid', () => ({ grant_type: 'client_credentials', client_id: 'nope', client_secret: 'x' })],
    ['no credentials', () => ({ grant_type: 'client_credentials' })],
  ])('answers 401 invalid_client for %s', async (_case, body) => {
    const { status, body: answer } = await grant(body());
    expect(status).toBe(401);
    expect(answer).toEqual({ error: 'invalid_client', error_description: 'Client authentication failed' });
  });

  it('answers 400 unsupported_grant_type and invalid_request in the OAuth shape', async () => {
    expect(await grant({ grant_type: 'password', ...credentials() })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'grant_type password is not supported' },
    });
    expect(await grant({ ...credentials() })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: "grant_type can't be blank" },
    });
  });

  it('refuses a revoked API key', async () => {
    const key = system.createApiKey('sandbox');
    const revoke = spawnSync(
      process.execPath,
      [join(repoRoot, 'services/auth-methods/dist/cli/sesame.js'), 'api-keys', 'revoke', key.clientId],
      {
        env: system.env,
        encoding: 'utf8',
      },
    );
    expect(revoke.stdout).toContain('revoked');
    const answer = await grant({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret });
    expect(answer.status).toBe(401);
  });

  it('gives a production key production tokens', async () => {
    const key = system.createApiKey('production');
    const { body } = await grant({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.clientSecret });
    const jwks = (await system.request('GET', '/.well-known/jwks.json', { token: null })).body;
    const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(jwks));
    expect(payload.env).toBe('production');
  });

  it('keeps its signing keys across restarts: tokens issued before stay valid', async () => {
    const before = (await grant({ grant_type: 'client_credentials', ...credentials() })).body.access_token;
    const kid = decodeProtectedHeader(before).kid;
    await system.restart(['auth-methods', 'gateway'], 'SIGKILL');
    const jwks = (await system.request('GET', '/.well-known/jwks.json', { token: null })).body as JSONWebKeySet;
    expect(jwks.keys.map((key) => key.kid)).toContain(kid);
    expect((await system.request('GET', '/api/v2/organizations', { token: before })).status).toBe(200);
    const after = (await grant({ grant_type: 'client_credentials', ...credentials() })).body.access_token;
    expect(decodeProtectedHeader(after).kid).toBe(kid);
  });
});
