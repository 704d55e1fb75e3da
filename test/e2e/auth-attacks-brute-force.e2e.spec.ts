import { randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { errorCatalogue } from '@sesame/contracts';
import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';

const passphrase = 'correct horse battery staple 42';
const rateLimited = {
  status: 429,
  body: {
    error: { type: 'rate_limited', message: errorCatalogue.rate_limited.message, doc_urls: ['http://localhost:8000/api'] },
  },
};
const lockedOut = {
  status: 429,
  body: { error: { type: 'too_many_requests', message: 'Too Many Requests', doc_urls: ['http://localhost:8000/api'] } },
};
const invalidCode = {
  status: 401,
  body: {
    error: {
      type: 'invalid_code',
      message: 'Invalid Code',
      doc_urls: ['http://localhost:8000/implement-multi-factor-authentication-mfa'],
    },
  },
};
const windowMs = 10_000;

/** Waits for the start of the next rate-limit window, so that a burst is counted in one window. */
async function atWindowStart(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() % windowMs) + 50));
}

const sleepSeconds = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1_000));

function retryAfterOf(answer: { headers: Headers }): number {
  const value = answer.headers.get('retry-after') ?? '';
  expect(value).toMatch(/^[1-9][0-9]*$/);
  expect(Number(value)).toBeLessThanOrEqual(2 * windowMs);
  return Number(value);
}

/**
 * Brute force over HTTP against the sign-in endpoints, with budgets of a few requests per 10 s
 * (set through the environment): the services' lock-outs answer first, then the gateway's rate
 * limit refuses everything, the right secret included, until `Retry-After` has passed.
 */
describe('Brute force on sign-in (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  beforeAll(async () => {
    system = await System.start({
      env: {
        SESAME_RATE_LIMIT_PASSWORD_CHALLENGE_EMAIL: '6/10',
        SESAME_RATE_LIMIT_TOTP_USER: '8/10',
        SESAME_RATE_LIMIT_TOKEN_CLIENT: '5/10',
      },
    });
    org = await createOrganization(system, 'Brute Force', { allowed_email_domains: ['brute-force.example'] });
  });
  afterAll(async () => {
    await system?.stop();
  });

  const challenge = (user_email: string, plain_text: string) =>
    system.request('POST', '/api/v2/password-challenge', { body: { org_domain: org, user_email, plain_text } });
  const withPassword = async (name: string) => {
    const email = `${name}@brute-force.example`;
    const set = await system.request('POST', '/api/v2/password', {
      body: { org_domain: org, user_email: email, plain_text: passphrase },
    });
    expect(set.status).toBe(201);
    return email;
  };

  it('password: wrong passwords are refused, then delayed, then rate limited; the right one too until Retry-After', async () => {
    const email = await withPassword(`ada-${randomUUID().slice(0, 8)}`);
    await atWindowStart();
    const refused = { code: null, expired_at: null, password_id: null, renew_password: false, user_id: null, 'valid?': false };
    for (let attempt = 1; attempt <= 3; attempt++)
      expect(await challenge(email, `wrong guess ${attempt}`)).toMatchObject({
        status: 200,
        body: { ...refused, error: 'invalid_credentials' },
      });
    // Delays start after three failures: an attempt inside the delay is not even checked.
    for (let attempt = 4; attempt <= 6; attempt++) {
      const answer = await challenge(email, `wrong guess ${attempt}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject(refused);
      expect(['invalid_credentials', 'too_many_attempts']).toContain(answer.body.error);
    }
    const limited = await challenge(email, 'wrong guess 7');
    expect({ status: limited.status, body: limited.body }).toEqual(rateLimited);
    const right = await challenge(email, passphrase);
    expect({ status: right.status, body: right.body }).toEqual(rateLimited);
    await sleepSeconds(retryAfterOf(right));
    expect(await challenge(email, passphrase)).toMatchObject({ status: 200, body: { 'valid?': true, error: null } });
  });

  it('TOTP: five wrong codes lock the user (429 too_many_requests), more requests hit the rate limit; another user is not affected', async () => {
    expect((await system.request('PUT', `/api/v2/org/${org}/totp-connection`, { body: { active: true } })).status).toBe(200);
    const user = async (name: string) =>
      (await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: `${name}@brute-force.example` } })).body
        .id as string;
    const [target, bystander] = [await user('totp-target'), await user('totp-bystander')];
    const enroll = async (id: string) => {
      const { body } = await system.request('POST', `/api/v2/org/${org}/totp-enrollment/${id}`, { body: {} });
      return OTPAuth.URI.parse(body.uri) as OTPAuth.TOTP;
    };
    const app = await enroll(target);
    await enroll(bystander);
    const challenge = (id: string) => system.request('POST', `/api/v2/org/${org}/totp-challenge/${id}`);
    const validate = (id: string, code: string) =>
      system.request('PUT', `/api/v2/org/${org}/totp-challenge/validation/${id}`, { body: { code } });
    await atWindowStart();
    expect((await challenge(target)).status).toBe(201);
    const wrong = app.generate() === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt++) expect(await validate(target, wrong)).toMatchObject(invalidCode);
    for (let attempt = 1; attempt <= 2; attempt++) expect(await validate(target, app.generate())).toMatchObject(lockedOut);
    const limited = await validate(target, app.generate());
    expect({ status: limited.status, body: limited.body }).toEqual(rateLimited);
    retryAfterOf(limited);
    expect(await challenge(target)).toMatchObject(rateLimited);
    expect((await challenge(bystander)).status).toBe(201);
  });

  it('token endpoint: wrong authorization codes answer invalid_grant, then slow_down for any code of the client until Retry-After', async () => {
    const email = await withPassword(`bob-${randomUUID().slice(0, 8)}`);
    const { code } = (await challenge(email, passphrase)).body;
    const exchange = (authorizationCode: string) =>
      system.request('POST', '/oauth/token', {
        token: null,
        form: new URLSearchParams({
          grant_type: 'authorization_code',
          code: authorizationCode,
          client_id: system.apiKey.clientId,
          client_secret: system.apiKey.clientSecret,
        }).toString(),
        headers: { 'x-forwarded-for': '198.51.100.60' },
      });
    await atWindowStart();
    for (let attempt = 1; attempt <= 5; attempt++)
      expect(await exchange(randomUUID())).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'The authorization code is invalid, expired or already used' },
      });
    const limited = await exchange(code);
    expect({ status: limited.status, body: limited.body }).toEqual({
      status: 429,
      body: { error: 'slow_down', error_description: errorCatalogue.rate_limited.message },
    });
    await sleepSeconds(retryAfterOf(limited));
    expect(await exchange(code)).toMatchObject({ status: 200, body: { token_type: 'Bearer' } });
  });
});
