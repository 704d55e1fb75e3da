import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import * as OTPAuth from 'otpauth';
import { JetStreamEventStore } from '@sesame/platform/event-store';
import { jetStreamName } from '@sesame/platform/stores';
import { eventSubjectPrefix } from '@sesame/contracts';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';

const mfaDoc = 'http://localhost:8000/implement-multi-factor-authentication-mfa';
const invalidCode = { error: { type: 'invalid_code', message: 'Invalid Code', doc_urls: [mfaDoc] } };
const inactive = { error: { type: 'inactive_totp', message: 'Your TOTP strategy is inactive', doc_urls: [mfaDoc] } };
const notEnrolled = { errors: { user_id: ['is not enrolled in TOTP'] } };
const badExpiry = { errors: { expiry_in_seconds: ['must be between 30 and 900'] } };

/** Codes computed by an independent implementation (the `otpauth` package) from the otpauth URI. */
function authenticator(uri: string) {
  const totp = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
  return { totp, code: (offsetSteps = 0) => totp.generate({ timestamp: Date.now() + offsetSteps * totp.period * 1000 }) };
}

/** Waits until the current 30 s step has at least 8 s left, so that client and server agree on "now". */
async function awayFromStepEdge(period = 30): Promise<void> {
  const left = period * 1000 - (Date.now() % (period * 1000));
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

describe('TOTP over HTTP (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let userId: string;
  const connection = () => `/api/v2/org/${org}/totp-connection`;
  const enrollment = (id = userId) => `/api/v2/org/${org}/totp-enrollment/${id}`;
  const enrollmentValidation = (code: string, id = userId) =>
    `/api/v2/org/${org}/totp-enrollment/validation/${id}?code=${encodeURIComponent(code)}`;
  const challenge = (id = userId) => `/api/v2/org/${org}/totp-challenge/${id}`;
  const challengeValidation = (id = userId) => `/api/v2/org/${org}/totp-challenge/validation/${id}`;
  const createUser = async (email: string) => {
    const created = await system.request('POST', `/api/v2/org/${org}/users`, { body: { email, phone_number: '+33612345678' } });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  beforeAll(async () => {
    system = await sharedSystem();
    org = await createOrganization(system, 'Hooli Totp', { allowed_email_domains: ['hooli-totp.com'] });
    userId = await createUser('gavin@hooli-totp.com');
  });

  describe('connection', () => {
    it('exists for every organization, inactive, mobile app, 30 seconds', async () => {
      expect(await system.request('GET', connection())).toMatchObject({
        status: 200,
        body: { active: false, method: 'totp_mobile_app', expiry_in_seconds: 30 },
      });
      expect(await system.request('GET', '/api/v2/org/no-such-org/totp-connection')).toMatchObject({
        status: 404,
        body: notFound,
      });
      expect(await system.request('GET', connection(), { token: null })).toMatchObject({ status: 401, body: unauthorized });
    });

    it('refuses enrollments and challenges while inactive: 403 inactive_totp', async () => {
      expect(await system.request('POST', challenge())).toMatchObject({ status: 403, body: inactive });
      expect(await system.request('POST', enrollment(), { body: {} })).toMatchObject({ status: 403, body: inactive });
      expect(await system.request('PUT', challengeValidation(), { body: { code: '123456' } })).toMatchObject({
        status: 403,
        body: inactive,
      });
    });

    it.each([[10], [29], [901], ['abc']])('refuses expiry_in_seconds %j with 422', async (expiry) => {
      const { status, body } = await system.request('PUT', connection(), { body: { expiry_in_seconds: expiry } });
      expect(status).toBe(422);
      expect(body).toEqual(expiry === 'abc' ? { errors: { expiry_in_seconds: [expect.any(String)] } } : badExpiry);
    });

    it('switches to SMS with its 600 s default, back to the app with 30 s, and on (form-encoded)', async () => {
      expect(await system.request('PUT', connection(), { body: { method: 'sms' } })).toMatchObject({
        status: 200,
        body: { active: false, method: 'sms', expiry_in_seconds: 600 },
      });
      const form = await system.request('PUT', connection(), { form: 'active=true&method=totp_mobile_app' });
      expect(form).toEqual(
        expect.objectContaining({ status: 200, body: { active: true, method: 'totp_mobile_app', expiry_in_seconds: 30 } }),
      );
      expect((await system.request('GET', connection())).body).toEqual({
        active: true,
        method: 'totp_mobile_app',
        expiry_in_seconds: 30,
      });
    });
  });

  describe('enrollment and challenge with an authenticator app', () => {
    let app: ReturnType<typeof authenticator>;
    let usedCode: string;

    it('cannot challenge a user who was never enrolled: 422', async () => {
      expect(await system.request('POST', challenge())).toMatchObject({ status: 422, body: notEnrolled });
      expect(await system.request('PUT', challengeValidation(), { body: { code: '123456' } })).toMatchObject({
        status: 422,
        body: notEnrolled,
      });
      expect(await system.request('PUT', enrollmentValidation('123456'))).toMatchObject({ status: 422, body: notEnrolled });
    });

    it('enrolls: an otpauth URI an independent authenticator reads', async () => {
      const { status, body } = await system.request('POST', enrollment(), { body: { force_enroll: false } });
      expect(status).toBe(201);
      expect(body).toEqual({
        email: 'gavin@hooli-totp.com',
        enrolled_totp_at: expect.any(String),
        enrolled_at: body.enrolled_totp_at,
        enrollment_totp_nb: 1,
        enrollment_nb: 1,
        first_verification_code: null,
        last_recovery_acknowledgement_at: null,
        last_recovery_code_at: null,
        recovery_codes: null,
        uri: expect.stringMatching(/^otpauth:\/\/totp\/Hooli%20Totp:gavin%40hooli-totp\.com\?secret=[A-Z2-7]{32}&/),
        validated_enrollment_at: null,
      });
      app = authenticator(body.uri);
      expect(app.totp).toMatchObject({
        issuer: 'Hooli Totp',
        label: 'gavin@hooli-totp.com',
        algorithm: 'SHA1',
        digits: 6,
        period: 30,
      });
    });

    it('keeps the secret encrypted at rest', async () => {
      if ((system.env.SESAME_EVENT_STORE ?? 'jetstream') !== 'jetstream') return;
      const nc: NatsConnection = await connect(system.natsOptions());
      try {
        const store = await JetStreamEventStore.open(nc, {
          streamName: jetStreamName(system.prefix, 'auth-methods'),
          subjectPrefix: eventSubjectPrefix(system.prefix, 'auth-methods'),
        });
        const { events } = await store.readStream(`totpEnrollment-${userId}`);
        const enrolled = events.find((event) => event.type === 'TotpEnrolled')?.data as { encrypted_secret: string };
        expect(enrolled.encrypted_secret).toMatch(/^v1\./);
        expect(JSON.stringify(events)).not.toContain(app.totp.secret.base32);
      } finally {
        await nc.close();
      }
    });

    it('validates the enrollment with a code from the app, 401 invalid_code for a wrong one', async () => {
      await awayFromStepEdge();
      const wrong = app.code() === '000000' ? '111111' : '000000';
      expect(await system.request('PUT', enrollmentValidation(wrong))).toMatchObject({ status: 401, body: invalidCode });
      const { status, body } = await system.request('PUT', enrollmentValidation(app.code(-1)));
      expect(status).toBe(200);
      expect(body).toMatchObject({
        enrolled_at: body.enrolled_totp_at,
        enrollment_totp_nb: 1,
        enrollment_nb: 1,
        validated_enrollment_at: expect.any(String),
        uri: null,
      });
      expect(body.enrolled_at).toEqual(expect.any(String));
    });

    it('refuses to enroll a validated user again without force_enroll', async () => {
      expect(await system.request('POST', enrollment(), { body: {} })).toMatchObject({
        status: 422,
        body: { errors: { force_enroll: ['must be true to enroll again a user whose enrollment is validated'] } },
      });
    });

    it('challenges: success false at creation, true after a right code', async () => {
      const created = await system.request('POST', challenge());
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sent_at: null,
        challenged_at: expect.any(String),
        code: null,
        success: false,
        recovery_code_used: false,
      });
      await awayFromStepEdge();
      usedCode = app.code();
      // A public client (PKCE): the S256 challenge computed here, independently of the service.
      const verifier = randomBytes(32).toString('base64url');
      const pkce = { code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' };
      const validated = await system.request('PUT', challengeValidation(), { body: { code: usedCode, ...pkce } });
      expect(validated).toMatchObject({
        status: 200,
        body: { request_id: created.body.request_id, success: true, recovery_code_used: false, code: expect.any(String) },
      });
      const exchange = (proof: Record<string, string>) =>
        system.request('POST', '/oauth/token', {
          token: null,
          form: new URLSearchParams({
            grant_type: 'authorization_code',
            code: validated.body.code,
            client_id: system.apiKey.clientId,
            ...proof,
          }).toString(),
        });
      expect(await exchange({ client_secret: system.apiKey.clientSecret })).toMatchObject({
        status: 400,
        body: {
          error: 'invalid_grant',
          error_description: 'code_verifier is required: the authorization code was issued with a code_challenge',
        },
      });
      const tokens = await exchange({ code_verifier: verifier });
      expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', id_token: expect.any(String) } });
      expect(await exchange({ code_verifier: verifier })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    });

    it('accepts a code once: the same code fails on the next challenge (401)', async () => {
      expect((await system.request('POST', challenge())).status).toBe(201);
      expect(await system.request('PUT', challengeValidation(), { body: { code: usedCode } })).toMatchObject({
        status: 401,
        body: invalidCode,
      });
    });

    it('re-enrolls with force_enroll: a new secret and five recovery codes, each usable once', async () => {
      const { status, body } = await system.request('POST', enrollment(), { form: 'force_enroll=true' });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        enrolled_at: body.enrolled_totp_at,
        enrollment_totp_nb: 2,
        enrollment_nb: 2,
        validated_enrollment_at: null,
        uri: expect.stringMatching(/^otpauth:/),
      });
      const codes = (body.recovery_codes as string).split('\n');
      expect(codes).toHaveLength(5);
      expect(new Set(codes).size).toBe(5);
      expect(authenticator(body.uri).totp.secret.base32).not.toBe(app.totp.secret.base32);

      const first = await system.request('POST', challenge());
      const recovered = await system.request('PUT', challengeValidation(), {
        body: { code: (codes[2] as string).toUpperCase() },
      });
      expect(recovered).toMatchObject({
        status: 200,
        body: { request_id: first.body.request_id, success: true, recovery_code_used: true },
      });
      await system.request('POST', challenge());
      expect(await system.request('PUT', challengeValidation(), { body: { code: codes[2] } })).toMatchObject({
        status: 401,
        body: invalidCode,
      });
      expect(await system.request('PUT', challengeValidation(), { body: { code: codes[3] } })).toMatchObject({
        status: 200,
        body: { success: true, recovery_code_used: true },
      });
    });
  });

  describe('attempts and errors', () => {
    it('locks a user out after five wrong codes in a row: 429 even for a right code', async () => {
      const other = await createUser('erlich@hooli-totp.com');
      const app = authenticator((await system.request('POST', enrollment(other), { body: {} })).body.uri);
      await system.request('POST', challenge(other));
      await awayFromStepEdge();
      const wrong = app.code() === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 5; attempt++)
        expect(await system.request('PUT', challengeValidation(other), { body: { code: wrong } })).toMatchObject({
          status: 401,
          body: invalidCode,
        });
      const locked = await system.request('PUT', challengeValidation(other), { body: { code: app.code() } });
      expect(locked).toMatchObject({
        status: 429,
        body: { error: { type: 'too_many_requests', message: 'Too Many Requests', doc_urls: ['http://localhost:8000/api'] } },
      });
    });

    it('answers 404 for an unknown user or organization, 401 without an API key', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect(await system.request('POST', enrollment(unknown), { body: {} })).toMatchObject({ status: 404, body: notFound });
      expect(await system.request('POST', `/api/v2/org/nope/totp-challenge/${userId}`)).toMatchObject({
        status: 404,
        body: notFound,
      });
      expect(await system.request('POST', challenge(), { token: null })).toMatchObject({ status: 401, body: unauthorized });
    });

    it('refuses a malformed user id or a missing code with 422', async () => {
      expect((await system.request('POST', `/api/v2/org/${org}/totp-challenge/not-a-uuid`)).status).toBe(422);
      const missing = await system.request('PUT', challengeValidation(), { body: {} });
      expect(missing).toMatchObject({ status: 422, body: { errors: { code: [expect.any(String)] } } });
    });
  });
  describe('SMS method', () => {
    const phone = '+33611112222';
    let smsOrg: string;
    let smsUser: string;
    const path = (kind: string, id = smsUser) => `/api/v2/org/${smsOrg}/${kind}/${id}`;
    /** The code of the last text message sent to `phone` (local SMS outbox). */
    const lastSmsCode = async () => {
      const { body } = await system.request('GET', `/dev/sms-outbox?to=${encodeURIComponent(phone)}`, { token: null });
      const text = (body.data.at(-1) as { text: string }).text;
      return /\b(\d{6})\b/.exec(text)?.[1] as string;
    };

    beforeAll(async () => {
      smsOrg = await createOrganization(system, 'Hooli Sms');
      const created = await system.request('POST', `/api/v2/org/${smsOrg}/users`, {
        body: { email: 'dinesh@hooli-sms.com', phone_number: phone },
      });
      smsUser = created.body.id;
      const switched = await system.request('PUT', `/api/v2/org/${smsOrg}/totp-connection`, {
        body: { active: true, method: 'sms' },
      });
      expect(switched.body).toEqual({ active: true, method: 'sms', expiry_in_seconds: 600 });
    });

    it('enrolls: first_verification_code in the answer and by SMS, no otpauth URI', async () => {
      const { status, body } = await system.request('POST', path('totp-enrollment'), { body: {} });
      expect(status).toBe(201);
      expect(body).toMatchObject({ uri: null, first_verification_code: expect.stringMatching(/^\d{6}$/), recovery_codes: null });
      expect(await lastSmsCode()).toBe(body.first_verification_code);
      const wrong = body.first_verification_code === '000000' ? '111111' : '000000';
      expect(
        await system.request('PUT', `/api/v2/org/${smsOrg}/totp-enrollment/validation/${smsUser}?code=${wrong}`),
      ).toMatchObject({
        status: 401,
        body: invalidCode,
      });
      const validated = await system.request(
        'PUT',
        `/api/v2/org/${smsOrg}/totp-enrollment/validation/${smsUser}?code=${body.first_verification_code}`,
      );
      expect(validated).toMatchObject({ status: 200, body: { validated_enrollment_at: expect.any(String) } });
    });

    it('challenges by SMS (sent_at set) and accepts the code sent, once', async () => {
      const created = await system.request('POST', path('totp-challenge'));
      expect(created).toMatchObject({ status: 201, body: { sent_at: expect.any(String), success: false } });
      const code = await lastSmsCode();
      const validation = `/api/v2/org/${smsOrg}/totp-challenge/validation/${smsUser}`;
      expect(await system.request('PUT', validation, { body: { code } })).toMatchObject({ status: 200, body: { success: true } });
      expect(await system.request('PUT', validation, { body: { code } })).toMatchObject({ status: 401, body: invalidCode });
    });

    it('needs a phone number to enroll a user with the SMS method', async () => {
      const created = await system.request('POST', `/api/v2/org/${smsOrg}/users`, { body: { email: 'nophone@hooli-sms.com' } });
      expect(await system.request('POST', path('totp-enrollment', created.body.id), { body: {} })).toMatchObject({
        status: 422,
        body: { errors: { phone_number: ['is required to send a code by SMS'] } },
      });
    });
  });
});
