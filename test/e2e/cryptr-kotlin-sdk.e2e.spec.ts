import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { createOrganization, unauthorized } from '../support/identity-fixtures';
import { apiKeyClaims, compactJws, foreignRsaKey, rsaSigner, systemSigningKey } from '../support/forged-tokens';
import { repoRoot } from '../support/system';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import type { ApiKey } from '../support/system';

const passphrase = 'correct horse battery staple 42';
const basicChallenge = 'Basic realm="sesame", charset="UTF-8"';
const wrongClient = { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
const usedCode = {
  status: 400,
  body: { error: 'invalid_grant', error_description: 'The authorization code is invalid, expired or already used' },
};

/**
 * The sign-in calls of Cryptr's Kotlin SDK (cryptr-auth/cryptr-kotlin, `Cryptr.kt` and
 * `Requestable.makeRequest`) exactly as it sends them: POST, `application/x-www-form-urlencoded`,
 * `Accept: application/json`, and the API key's access token as `Authorization: Bearer` on every
 * call, the code exchanges included (they send no client secret).
 */
describe("Cryptr's Kotlin SDK sign-in calls (all processes, real NATS)", () => {
  let system: System;
  let org: string;
  let emailDomain: string;
  const callback = 'https://app.kotlin.example/callback';
  const email = (name: string) => `${name}@${emailDomain}`;

  beforeAll(async () => {
    system = await sharedSystem();
    emailDomain = `kotlin-${randomUUID().slice(0, 8)}.example.com`;
    org = await createOrganization(system, `Kotlin ${emailDomain}`, { allowed_email_domains: [emailDomain] });
    expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
    expect((await system.request('POST', `/api/v2/org/${org}/magic-link-connection`, { body: {} })).status).toBe(201);
    expect(
      (
        await system.request('POST', '/api/v2/password', {
          body: { org_domain: org, user_email: email('ada'), plain_text: passphrase },
        })
      ).status,
    ).toBe(201);
  });

  /** `makeRequest`: a form, `Accept: application/json`, the bearer token when there is one. */
  const kotlin = async (path: string, fields: Record<string, string>, key: ApiKey | string = system.apiKey) =>
    system.request('POST', path, {
      token: typeof key === 'string' ? key : await system.token(key),
      form: new URLSearchParams(fields).toString(),
      headers: { accept: 'application/json' },
    });
  /** `createMagicLinkChallenge(userEmail, redirectUri, orgDomain)`. */
  const magicLinkCode = async (key: ApiKey = system.apiKey) => {
    const answer = await kotlin(
      '/api/v2/magic-link-challenge',
      { user_email: email('ada'), redirect_uri: callback, org_domain: org },
      key,
    );
    expect(answer).toMatchObject({ status: 201, body: { email_address: email('ada'), code: expect.any(String) } });
    return answer.body.code as string;
  };
  /** `validateChallenge(code)`: `code` then `grant_type`, at `api/v2/oauth/token`. */
  const validateChallenge = (code: string, key: ApiKey | string = system.apiKey) =>
    kotlin('/api/v2/oauth/token', { code, grant_type: 'authorization_code' }, key);

  it('creates a magic-link challenge with user_email, and validateChallenge exchanges its code with the Bearer token alone', async () => {
    const tokens = await validateChallenge(await magicLinkCode());
    expect(tokens).toMatchObject({
      status: 200,
      body: { access_token: expect.any(String), id_token: expect.any(String), token_type: 'Bearer' },
    });
    expect(decodeJwt(tokens.body.id_token)).toMatchObject({ email: email('ada'), aud: system.apiKey.clientId });
  });

  it('refuses a magic-link challenge without an email, or with user_email and another email: 422', async () => {
    expect(await kotlin('/api/v2/magic-link-challenge', { redirect_uri: callback, org_domain: org })).toMatchObject({
      status: 422,
      body: { errors: { email: ["can't be blank"] } },
    });
    const both = await kotlin('/api/v2/magic-link-challenge', {
      user_email: email('ada'),
      email: email('bob'),
      redirect_uri: callback,
    });
    expect(both).toMatchObject({
      status: 422,
      body: {
        errors: { user_email: ['must be the same as email when both are given (user_email is another name for email)'] },
      },
    });
  });

  it('getPasswordChallengeTokens: a password code for tokens at /api/v2/oauth/token with the Bearer token', async () => {
    const challenge = await kotlin('/api/v2/password-challenge', {
      org_domain: org,
      user_email: email('ada'),
      plain_text: passphrase,
    });
    expect(challenge).toMatchObject({ status: 200, body: { 'valid?': true, code: expect.any(String) } });
    const tokens = await kotlin('/api/v2/oauth/token', { grant_type: 'authorization_code', code: challenge.body.code });
    expect(tokens).toMatchObject({ status: 200, body: { refresh_token: expect.any(String), token_type: 'Bearer' } });
  });

  it('validateSsoChallenge: `code` alone (no grant_type) at /oauth/token is the code exchange; neither is 400', async () => {
    expect(await kotlin('/oauth/token', { code: await magicLinkCode() })).toMatchObject({
      status: 200,
      body: { id_token: expect.any(String) },
    });
    expect(await kotlin('/oauth/token', {})).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: "grant_type can't be blank" },
    });
  });

  it('a code works once: presented again it is invalid_grant', async () => {
    const code = await magicLinkCode();
    expect((await validateChallenge(code)).status).toBe(200);
    expect(await validateChallenge(code)).toMatchObject(usedCode);
  });

  describe('an access token proves only its own key, for its own codes', () => {
    const expectWrongClient = async (code: string, token: string) => {
      const answer = await validateChallenge(code, token);
      expect(answer).toMatchObject(wrongClient);
      expect(answer.headers.get('www-authenticate')).toBe(basicChallenge);
    };

    it("refuses the token of another key of the environment, and of the other environment, as a wrong secret; the code's own key still gets its tokens", async () => {
      const code = await magicLinkCode();
      await expectWrongClient(code, await system.token(system.createApiKey('sandbox')));
      await expectWrongClient(code, await system.token(system.createApiKey('production')));
      expect(
        await kotlin('/api/v2/oauth/token', { code, grant_type: 'authorization_code', client_id: 'someone-else' }),
      ).toMatchObject(wrongClient);
      expect((await validateChallenge(code)).status).toBe(200);
    });

    it('refuses expired, forged and user access tokens, and an unsigned one, as a wrong secret', async () => {
      const code = await magicLinkCode();
      const key = await systemSigningKey(system);
      const now = Math.floor(Date.now() / 1000);
      const header = { alg: 'RS256', kid: key.kid, typ: 'JWT' };
      const signed = (claims: Record<string, unknown>) => compactJws(header, claims, rsaSigner('RSA-SHA256', key.privateKey));
      const genuine = signed(apiKeyClaims(system));
      const forgeries = [
        signed(apiKeyClaims(system, { exp: now - 60 })),
        compactJws(header, apiKeyClaims(system), rsaSigner('RSA-SHA256', foreignRsaKey().privateKey)),
        signed(apiKeyClaims(system, { jtt: 'access' })),
        signed(apiKeyClaims(system, { aud: 'https://api.example.com' })),
        `${genuine.split('.').slice(0, 2).join('.')}.`,
        'not-a-jwt',
      ];
      for (const forged of forgeries) await expectWrongClient(code, forged);
      // The same claims with the real key: the code was not spent by the refusals.
      expect((await validateChallenge(code, genuine)).status).toBe(200);
    });

    it("refuses a revoked key's token, even for the codes of its own sign-ins", async () => {
      const doomed = system.createApiKey('sandbox');
      const token = await system.token(doomed);
      const code = await magicLinkCode(doomed);
      const run = spawnSync(
        process.execPath,
        [join(repoRoot, 'services/auth-methods/dist/cli/sesame.js'), 'api-keys', 'revoke', doomed.clientId],
        { env: system.env, encoding: 'utf8' },
      );
      expect(run.stdout).toContain(`API key ${doomed.clientId} is revoked`);
      for (const since = Date.now(); ;) {
        const list = await system.request('GET', '/api/v2/organizations', { token });
        if (list.status === 401) {
          expect(list.body).toEqual(unauthorized);
          break;
        }
        if (Date.now() - since > 30_000) throw new Error("the gateway still accepts the revoked key's token");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await expectWrongClient(code, token);
    });

    it('authenticates the code exchange only: a refresh with the Bearer token alone is invalid_client', async () => {
      const tokens = await validateChallenge(await magicLinkCode());
      expect(
        await kotlin('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }),
      ).toMatchObject({
        status: 401,
        body: {
          error: 'invalid_client',
          error_description:
            'Client authentication failed: an API access token authenticates the authorization_code grant only; send client_secret',
        },
      });
    });
  });
});
