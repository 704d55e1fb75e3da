import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'nats';
import { errorCatalogue } from '@sesame/contracts';
import { freePort } from '../support/free-port';
import { System, processEntries, repoRoot } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';

const message = errorCatalogue.rate_limited.message;
const rateLimited = { error: { type: 'rate_limited', message, doc_urls: ['http://localhost:8000/api'] } };

/** `Retry-After`: whole seconds, at least one, at most two windows (60 s here). */
function expectRetryAfter(headers: Headers) {
  const value = headers.get('retry-after');
  expect(value).toMatch(/^[1-9][0-9]*$/);
  expect(Number(value)).toBeLessThanOrEqual(120);
}

async function readyAt(baseUrl: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (
    !(await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    if (Date.now() - started > timeoutMs) throw new Error(`${baseUrl} not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The gateway's rate limits over HTTP, with budgets of 3 requests a minute (set through the
 * environment, as an operator would): the fourth request answers 429 in its operation's error
 * shape with `Retry-After`, another key still passes, and without the counters' bucket the
 * requests go through (fail open). The system's gateway trusts one proxy, as behind the chart's
 * ingress (client addresses from `X-Forwarded-For`); a replica on the default trusts none.
 */
describe('Rate limits (all processes, real NATS key-value)', () => {
  let system: System;
  let org: string;
  const budgets = ['PASSWORD_CHALLENGE_EMAIL', 'TOKEN_CLIENT', 'SCIM_TOKEN', 'SSO_IP', 'INVITATION_IP', 'MAGIC_LINK_IP'] as const;
  beforeAll(async () => {
    system = await System.start({
      env: Object.fromEntries(budgets.map((name) => [`SESAME_RATE_LIMIT_${name}`, '3/60'])),
      processEnv: { gateway: { SESAME_TRUST_PROXY: '1' } },
    });
    org = await createOrganization(system, 'Rate Limited', { allowed_email_domains: ['rate-limited.example'] });
  });
  afterAll(async () => {
    await system?.stop();
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('answers the fourth password challenge for an email 429 rate_limited, in the API error shape; another email passes', async () => {
    const challenge = (user_email: string) =>
      system.request('POST', '/api/v2/password-challenge', {
        body: { org_domain: org, user_email, plain_text: 'not the password' },
      });
    for (let attempt = 0; attempt < 3; attempt++)
      expect(await challenge('ada@rate-limited.example')).toMatchObject({ status: 200, body: { 'valid?': false } });
    const refused = await challenge('ADA@rate-limited.example');
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 429, body: rateLimited });
    expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expectRetryAfter(refused.headers);
    expect(await challenge('bob@rate-limited.example')).toMatchObject({ status: 200, body: { error: 'invalid_credentials' } });
  });

  it('shares the budget between two gateway replicas: three challenges across both, the fourth refused on either', async () => {
    const port = await freePort();
    const replica = spawn(process.execPath, [join(repoRoot, processEntries.gateway)], {
      cwd: repoRoot,
      env: { ...system.env, SESAME_HTTP_PORT: String(port) },
      stdio: 'ignore',
    });
    try {
      const second = `http://127.0.0.1:${port}`;
      await readyAt(second);
      const authorization = `Bearer ${await system.token()}`;
      const body = JSON.stringify({ org_domain: org, user_email: 'dave@rate-limited.example', plain_text: 'not the password' });
      const challenge = (base: string) =>
        fetch(`${base}/api/v2/password-challenge`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body,
        }).then(async (response) => ({ status: response.status, body: await response.json() }));
      expect((await challenge(system.baseUrl)).status).toBe(200);
      expect((await challenge(second)).status).toBe(200);
      expect((await challenge(system.baseUrl)).status).toBe(200);
      expect(await challenge(second)).toEqual({ status: 429, body: rateLimited });
      expect(await challenge(system.baseUrl)).toEqual({ status: 429, body: rateLimited });
    } finally {
      replica.kill('SIGKILL');
    }
  });

  it('answers the token endpoint 429 slow_down in the OAuth shape, also for the right secret, per client_id', async () => {
    const key = system.createApiKey('sandbox');
    const grant = (clientSecret: string) =>
      system.request('POST', '/oauth/token', {
        token: null,
        form: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: key.clientId,
          client_secret: clientSecret,
        }).toString(),
      });
    for (let attempt = 0; attempt < 3; attempt++)
      expect(await grant('wrong')).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const refused = await grant(key.clientSecret);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: { error: 'slow_down', error_description: message },
    });
    expectRetryAfter(refused.headers);
    const other = system.createApiKey('sandbox');
    expect(
      await system.request('POST', '/oauth/token', {
        token: null,
        body: { grant_type: 'client_credentials', client_id: other.clientId, client_secret: other.clientSecret },
      }),
    ).toMatchObject({ status: 200 });
  });

  it('answers SCIM 429 in the SCIM shape, per directory-sync token', async () => {
    const { body } = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'azure_ad' } });
    const users = `${new URL(body.scim_base_url).pathname}/Users`;
    const token = body.auth_secret_token.value as string;
    for (let attempt = 0; attempt < 3; attempt++) expect((await system.request('GET', users, { token })).status).toBe(200);
    const refused = await system.request('GET', users, { token });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '429', detail: message },
    });
    expect(refused.headers.get('content-type')).toBe('application/scim+json; charset=utf-8');
    expectRetryAfter(refused.headers);
  });

  it('limits the SAML browser endpoints, invitation tokens and magic-link challenges per client address', async () => {
    const acs = (ip: string) =>
      system.request('POST', '/sso/saml/no-such-sp/acs', { token: null, form: 'SAMLResponse=PHNhbWw%2B', headers: from(ip) });
    for (let attempt = 0; attempt < 3; attempt++) expect((await acs('198.51.100.20')).status).not.toBe(429);
    const acsRefused = await acs('198.51.100.20');
    expect({ status: acsRefused.status, body: acsRefused.body }).toEqual({ status: 429, body: rateLimited });
    expectRetryAfter(acsRefused.headers);
    expect((await acs('198.51.100.21')).status).not.toBe(429);

    const open = (ip: string) =>
      system.request('POST', '/api/v2/admin-invitations/open', { token: null, body: { token: randomUUID() }, headers: from(ip) });
    for (let attempt = 0; attempt < 3; attempt++) expect((await open('198.51.100.30')).status).toBe(422);
    expect(await open('198.51.100.30')).toMatchObject({ status: 429, body: rateLimited });

    const magicLink = (ip: string) =>
      system.request('POST', '/api/v2/magic-link-challenge', {
        body: { email: `${randomUUID()}@rate-limited.example`, org_domain: org },
        headers: from(ip),
      });
    for (let attempt = 0; attempt < 3; attempt++) expect((await magicLink('198.51.100.40')).status).not.toBe(429);
    expect(await magicLink('198.51.100.40')).toMatchObject({ status: 429, body: rateLimited });
  });

  it('trusts no X-Forwarded-For by default (no proxy in front): a forged address gets no fresh per-address budget', async () => {
    const port = await freePort();
    const direct = spawn(process.execPath, [join(repoRoot, processEntries.gateway)], {
      cwd: repoRoot,
      env: { ...system.envOf('gateway'), SESAME_HTTP_PORT: String(port) },
      stdio: 'ignore',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await readyAt(base);
      const acs = (forged: string) =>
        fetch(`${base}/sso/saml/no-such-sp/acs`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forged },
          body: 'SAMLResponse=PHNhbWw%2B',
        }).then(async (response) => ({ status: response.status, body: await response.text(), headers: response.headers }));
      for (const forged of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) expect((await acs(forged)).status).not.toBe(429);
      const refused = await acs('203.0.113.4');
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toEqual(rateLimited);
      expectRetryAfter(refused.headers);
    } finally {
      direct.kill('SIGKILL');
    }
  });

  it('lets requests through when the counters are unavailable (fail open) and logs it', async () => {
    const nc = await connect(system.natsOptions());
    try {
      await (await nc.jetstreamManager()).streams.delete(`KV_${system.prefix}_rate_limits`);
    } finally {
      await nc.close();
    }
    const challenge = () =>
      system.request('POST', '/api/v2/password-challenge', {
        body: { org_domain: org, user_email: 'carol@rate-limited.example', plain_text: 'not the password' },
      });
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt++) answers.push((await challenge()).status);
    expect(answers).toEqual([200, 200, 200, 200, 200]);
    const metrics = await fetch(system.metricsUrl('gateway')).then((response) => response.text());
    expect(metrics).toMatch(
      /sesame_rate_limit_decisions_total\{limit="password_challenge_email",outcome="error",process="gateway"\} 5/,
    );
  });
});
