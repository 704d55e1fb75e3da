import type { AppError, TotpEnrollmentEvent } from '@sesame/contracts';
import { deciderSpecification } from '@sesame/platform/testing';
import { totpEnrollmentDecider } from './totp-enrollment.decider';
import type { TotpEnrollmentCommand } from './totp-enrollment.decider';

const spec = deciderSpecification(totpEnrollmentDecider);
const user_id = 'user-1';
const t0 = '2026-01-01T00:00:00.000Z';
const later = (seconds: number) => new Date(Date.parse(t0) + seconds * 1000).toISOString();
const tenant = { organization_id: 'org-1', organization_domain: 'hooli', environment: 'sandbox' as const };
/** What every event after the enrollment carries for webhooks. */
const where = { organization_domain: 'hooli', environment: 'sandbox' as const };

const enrolledData = (method: 'totp_mobile_app' | 'sms', nb = 1, hashes: string[] = []) => ({
  ...tenant,
  user_id,
  email: 'gavin@hooli.com',
  method,
  period: method === 'sms' ? 600 : 30,
  encrypted_secret: 'v1.k.sealed',
  first_counter: method === 'sms' ? 42 : null,
  enrollment_nb: nb,
  recovery_code_hashes: hashes,
  at: t0,
});
const enrolled = (method: 'totp_mobile_app' | 'sms' = 'totp_mobile_app', nb = 1, hashes: string[] = []): TotpEnrollmentEvent => ({
  type: 'TotpEnrolled',
  data: enrolledData(method, nb, hashes),
});
const enroll = (
  force: boolean,
  method: 'totp_mobile_app' | 'sms' = 'totp_mobile_app',
  hashes: string[] = [],
): TotpEnrollmentCommand => {
  const { enrollment_nb: _nb, ...data } = enrolledData(method, 0, hashes);
  return { type: 'EnrollTotp', data: { ...data, force } };
};
const validated = (step: number, at = later(10)): TotpEnrollmentEvent => ({
  type: 'TotpEnrollmentValidated',
  data: { ...where, user_id, enrollment_nb: 1, step, at },
});
const validate = (step: number | null, at = later(10), nb = 1): TotpEnrollmentCommand => ({
  type: 'ValidateTotpEnrollment',
  data: { user_id, enrollment_nb: nb, step, at },
});
const challengeData = (counter: number | null = null, at = later(20), request_id = 'req-1') => ({
  user_id,
  request_id,
  counter,
  sent_at: counter === null ? null : at,
  at,
});
const challenged = (counter: number | null = null, at = later(20), request_id = 'req-1'): TotpEnrollmentEvent => ({
  type: 'TotpChallengeCreated',
  data: { ...where, ...challengeData(counter, at, request_id) },
});
const answer = (
  step: number | null,
  options: { at?: string; recovery?: string | null; request?: string | null } = {},
): TotpEnrollmentCommand => ({
  type: 'ValidateTotpChallenge',
  data: {
    user_id,
    enrollment_nb: 1,
    request_id: options.request === undefined ? 'req-1' : options.request,
    step,
    recovery_code_hash: options.recovery ?? null,
    at: options.at ?? later(30),
  },
});
const rejected = (failed_attempts: number, at: string, locked_until: string | null = null): TotpEnrollmentEvent => ({
  type: 'TotpCodeRejected',
  data: { ...where, user_id, failed_attempts, locked_until, at },
});
const succeeded = (step: number | null, recovery: string | null = null, at = later(30)): TotpEnrollmentEvent => ({
  type: 'TotpChallengeSucceeded',
  data: { ...where, user_id, request_id: 'req-1', step, recovery_code_hash: recovery, at },
});
const notEnrolled: AppError = { kind: 'fields', fields: { user_id: ['is not enrolled in TOTP'] } };

describe('TOTP enrollment decider', () => {
  describe('enrollment', () => {
    it('enrolls a user, numbering enrollments', () => {
      spec.given([]).when(enroll(false)).then([enrolled()]);
      spec
        .given([enrolled()])
        .when(enroll(false))
        .then([enrolled('totp_mobile_app', 2)]);
    });

    it('enrolls again a validated user only with force_enroll, keeping the recovery code hashes', () => {
      spec
        .given([enrolled(), validated(100)])
        .when(enroll(false))
        .thenFails({
          kind: 'fields',
          fields: { force_enroll: ['must be true to enroll again a user whose enrollment is validated'] },
        });
      spec
        .given([enrolled(), validated(100)])
        .when(enroll(true, 'totp_mobile_app', ['h1', 'h2']))
        .then([enrolled('totp_mobile_app', 2, ['h1', 'h2'])]);
    });
  });

  describe('enrollment validation', () => {
    it('accepts a matching code once', () => {
      spec
        .given([enrolled()])
        .when(validate(100))
        .then([validated(100)]);
      spec
        .given([enrolled(), validated(100)])
        .when(validate(100, later(15)))
        .then([rejected(1, later(15))]);
      spec
        .given([enrolled(), validated(100)])
        .when(validate(101, later(40)))
        .then([validated(101, later(40))]);
    });

    it('refuses a wrong code, a code of a replaced enrollment, and a user never enrolled', () => {
      spec
        .given([enrolled()])
        .when(validate(null))
        .then([rejected(1, later(10))]);
      spec
        .given([enrolled()])
        .when(validate(100, later(10), 7))
        .then([rejected(1, later(10))]);
      spec.given([]).when(validate(100)).thenFails(notEnrolled);
    });

    it('accepts the first SMS code within its lifetime only', () => {
      spec
        .given([enrolled('sms')])
        .when(validate(42, later(600)))
        .then([validated(42, later(600))]);
      spec
        .given([enrolled('sms')])
        .when(validate(42, later(601)))
        .then([rejected(1, later(601))]);
      spec
        .given([enrolled('sms')])
        .when(validate(41, later(10)))
        .then([rejected(1, later(10))]);
    });
  });

  describe('challenges', () => {
    it('challenges an enrolled user only', () => {
      spec.given([enrolled()]).when({ type: 'CreateTotpChallenge', data: challengeData() }).then([challenged()]);
      spec.given([]).when({ type: 'CreateTotpChallenge', data: challengeData() }).thenFails(notEnrolled);
    });

    it('succeeds once with a fresh code of the mobile app', () => {
      spec
        .given([enrolled(), challenged()])
        .when(answer(100))
        .then([succeeded(100)]);
      spec
        .given([enrolled(), challenged(), succeeded(100)])
        .when(answer(101, { at: later(40) }))
        .then([rejected(1, later(40))]);
    });

    it('refuses a code already used, even in a new challenge (replay)', () => {
      const second = challenged(null, later(20), 'req-2');
      spec
        .given([enrolled(), validated(100), second])
        .when(answer(100, { request: 'req-2' }))
        .then([rejected(1, later(30))]);
    });

    it('refuses without a pending challenge, or for another challenge', () => {
      spec
        .given([enrolled()])
        .when(answer(100, { request: null }))
        .then([rejected(1, later(30))]);
      spec
        .given([enrolled(), challenged()])
        .when(answer(100, { request: 'other' }))
        .then([rejected(1, later(30))]);
    });

    it('checks an SMS code against the challenge counter and lifetime', () => {
      spec
        .given([enrolled('sms'), challenged(77)])
        .when(answer(77))
        .then([succeeded(77)]);
      spec
        .given([enrolled('sms'), challenged(77)])
        .when(answer(42))
        .then([rejected(1, later(30))]);
      spec
        .given([enrolled('sms'), challenged(77)])
        .when(answer(77, { at: later(621) }))
        .then([rejected(1, later(621))]);
    });

    it('accepts each recovery code once', () => {
      const withCodes = enrolled('totp_mobile_app', 1, ['h1', 'h2']);
      spec
        .given([withCodes, challenged()])
        .when(answer(null, { recovery: 'h2' }))
        .then([succeeded(null, 'h2')]);
      const again = challenged(null, later(20), 'req-2');
      spec
        .given([withCodes, challenged(), succeeded(null, 'h2'), again])
        .when(answer(null, { recovery: 'h2', request: 'req-2', at: later(50) }))
        .then([rejected(1, later(50))]);
      spec
        .given([withCodes, challenged()])
        .when(answer(null, { recovery: 'unknown' }))
        .then([rejected(1, later(30))]);
    });
  });

  describe('attempt limit', () => {
    const failures = (count: number) => Array.from({ length: count }, (_, index) => rejected(index + 1, later(30 + index)));

    it('locks the user out for 15 minutes at the fifth wrong code in a row', () => {
      spec
        .given([enrolled(), challenged(), ...failures(4)])
        .when(answer(null, { at: later(40) }))
        .then([rejected(5, later(40), later(40 + 900))]);
    });

    it('refuses even a right code while locked out, and takes codes again afterwards', () => {
      const locked = rejected(5, later(40), later(940));
      spec
        .given([enrolled(), challenged(), ...failures(4), locked])
        .when(answer(100, { at: later(100) }))
        .thenFails({ kind: 'error', code: 'too_many_requests' });
      spec
        .given([enrolled(), challenged(), ...failures(4), locked])
        .when(answer(100, { at: later(941) }))
        .then([succeeded(100, null, later(941))]);
    });

    it('starts counting again after a success', () => {
      spec
        .given([enrolled(), ...failures(4), validated(100)])
        .when(validate(null, later(60)))
        .then([rejected(1, later(60))]);
    });
  });
});
