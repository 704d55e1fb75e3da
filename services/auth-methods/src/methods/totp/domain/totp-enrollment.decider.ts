import { catalogueError, fieldError } from '@sesame/contracts';
import type { TotpEnrollmentEvent } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

/** Wrong codes in a row before a lock-out, and how long it lasts. */
export const maxFailedTotpAttempts = 5;
export const totpLockoutMs = 15 * 60_000;
export const notEnrolledMessage = 'is not enrolled in TOTP';
export const alreadyEnrolledMessage = 'must be true to enroll again a user whose enrollment is validated';

type Enrolled = Extract<TotpEnrollmentEvent, { type: 'TotpEnrolled' }>['data'];

export interface TotpEnrollmentData extends Omit<Enrolled, 'recovery_code_hashes' | 'at'> {
  enrolled_at: string;
  validated_at: string | null;
  recovery_codes: { hash: string; used_at: string | null }[];
  last_recovery_code_at: string | null;
  /** Last time step accepted (mobile app): a code is accepted once. */
  last_step: number;
}

export interface TotpChallengeData {
  request_id: string;
  counter: number | null;
  challenged_at: string;
  sent_at: string | null;
  success: boolean;
  recovery_code_used: boolean;
}

/** One user's TOTP: the current enrollment, the latest challenge and the failed-attempt counter. */
export interface TotpEnrollmentState {
  enrollment: TotpEnrollmentData | null;
  challenge: TotpChallengeData | null;
  failed_attempts: number;
  locked_until: string | null;
}

/** What the handler found by checking the typed code against the secret (the decider holds no key). */
export interface CodeCheck {
  user_id: string;
  enrollment_nb: number;
  /** Time step (app) or HOTP counter (SMS) whose code was typed, null when none matched. */
  step: number | null;
  at: string;
}

export type TotpEnrollmentCommand =
  | { type: 'EnrollTotp'; data: Omit<Enrolled, 'enrollment_nb'> & { force: boolean } }
  | { type: 'ValidateTotpEnrollment'; data: CodeCheck }
  | {
      type: 'CreateTotpChallenge';
      data: { user_id: string; request_id: string; counter: number | null; sent_at: string | null; at: string };
    }
  | {
      type: 'ValidateTotpChallenge';
      data: CodeCheck & { request_id: string | null; recovery_code_hash: string | null };
    };

/** The user's enrollment, or 422 on `user_id` when there is none. */
export const requireEnrollment = (state: TotpEnrollmentState): TotpEnrollmentData =>
  state.enrollment ?? fail(fieldError('user_id', notEnrolledMessage));

function requireUnlocked(state: TotpEnrollmentState, at: string): void {
  if (state.locked_until && at < state.locked_until) fail(catalogueError('too_many_requests'));
}

/** The organization and environment every event after the enrollment carries, for webhooks. */
const tenantOf = ({ organization_domain, environment }: TotpEnrollmentData) => ({ organization_domain, environment });

function rejected(state: TotpEnrollmentState, user_id: string, at: string): TotpEnrollmentEvent[] {
  const failed_attempts = state.failed_attempts + 1;
  const locked_until = failed_attempts >= maxFailedTotpAttempts ? new Date(Date.parse(at) + totpLockoutMs).toISOString() : null;
  const tenant = state.enrollment ? tenantOf(state.enrollment) : {};
  return [{ type: 'TotpCodeRejected', data: { ...tenant, user_id, failed_attempts, locked_until, at } }];
}

const expired = (issuedAt: string, periodSeconds: number, at: string) =>
  Date.parse(at) > Date.parse(issuedAt) + periodSeconds * 1000;

/** Whether `step` is a fresh code of this enrollment: a new time step (app), the expected counter in time (SMS). */
function acceptable(enrollment: TotpEnrollmentData, check: CodeCheck, counter: number | null, issuedAt: string): boolean {
  if (check.step === null || check.enrollment_nb !== enrollment.enrollment_nb) return false;
  if (enrollment.method === 'sms') return check.step === counter && !expired(issuedAt, enrollment.period, check.at);
  return check.step > enrollment.last_step;
}

function enroll(command: Extract<TotpEnrollmentCommand, { type: 'EnrollTotp' }>, state: TotpEnrollmentState) {
  const { force, ...data } = command.data;
  if (state.enrollment?.validated_at && !force) fail(fieldError('force_enroll', alreadyEnrolledMessage));
  const enrollment_nb = (state.enrollment?.enrollment_nb ?? 0) + 1;
  return [{ type: 'TotpEnrolled', data: { ...data, enrollment_nb } }] satisfies TotpEnrollmentEvent[];
}

function validateEnrollment(check: CodeCheck, state: TotpEnrollmentState): TotpEnrollmentEvent[] {
  const enrollment = requireEnrollment(state);
  requireUnlocked(state, check.at);
  if (!acceptable(enrollment, check, enrollment.first_counter, enrollment.enrolled_at))
    return rejected(state, check.user_id, check.at);
  const { user_id, enrollment_nb, at } = check;
  const data = { ...tenantOf(enrollment), user_id, enrollment_nb, step: check.step as number, at };
  return [{ type: 'TotpEnrollmentValidated', data }];
}

function createChallenge(
  command: Extract<TotpEnrollmentCommand, { type: 'CreateTotpChallenge' }>,
  state: TotpEnrollmentState,
): TotpEnrollmentEvent[] {
  const enrollment = requireEnrollment(state);
  return [{ type: 'TotpChallengeCreated', data: { ...tenantOf(enrollment), ...command.data } }];
}

function validateChallenge(
  command: Extract<TotpEnrollmentCommand, { type: 'ValidateTotpChallenge' }>,
  state: TotpEnrollmentState,
): TotpEnrollmentEvent[] {
  const { user_id, request_id, recovery_code_hash, at } = command.data;
  const enrollment = requireEnrollment(state);
  requireUnlocked(state, at);
  const challenge = state.challenge;
  if (!challenge || challenge.success || challenge.request_id !== request_id) return rejected(state, user_id, at);
  const recovery = recovery_code_hash
    ? enrollment.recovery_codes.find((code) => code.hash === recovery_code_hash && code.used_at === null)
    : undefined;
  const tenant = tenantOf(enrollment);
  if (recovery)
    return [{ type: 'TotpChallengeSucceeded', data: { ...tenant, user_id, request_id, step: null, recovery_code_hash, at } }];
  if (!acceptable(enrollment, command.data, challenge.counter, challenge.challenged_at)) return rejected(state, user_id, at);
  const step = command.data.step as number;
  return [{ type: 'TotpChallengeSucceeded', data: { ...tenant, user_id, request_id, step, recovery_code_hash: null, at } }];
}

function evolveEnrollment(enrollment: TotpEnrollmentData, event: TotpEnrollmentEvent): TotpEnrollmentData {
  switch (event.type) {
    case 'TotpEnrollmentValidated':
      return {
        ...enrollment,
        validated_at: enrollment.validated_at ?? event.data.at,
        last_step: Math.max(enrollment.last_step, event.data.step),
      };
    case 'TotpChallengeSucceeded': {
      const { step, recovery_code_hash, at } = event.data;
      if (recovery_code_hash)
        return {
          ...enrollment,
          last_recovery_code_at: at,
          recovery_codes: enrollment.recovery_codes.map((code) =>
            code.hash === recovery_code_hash ? { ...code, used_at: at } : code,
          ),
        };
      return enrollment.method === 'sms' || step === null ? enrollment : { ...enrollment, last_step: step };
    }
    default:
      return enrollment;
  }
}

function toEnrollment(data: Enrolled): TotpEnrollmentData {
  const { recovery_code_hashes, at, ...rest } = data;
  return {
    ...rest,
    enrolled_at: at,
    validated_at: null,
    recovery_codes: recovery_code_hashes.map((hash) => ({ hash, used_at: null })),
    last_recovery_code_at: null,
    last_step: -1,
  };
}

export const totpEnrollmentDecider: Decider<TotpEnrollmentState, TotpEnrollmentCommand, TotpEnrollmentEvent> = {
  initialState: () => ({ enrollment: null, challenge: null, failed_attempts: 0, locked_until: null }),
  tenant: ({ enrollment }) =>
    enrollment ? { organization_id: enrollment.organization_id, environment: enrollment.environment } : undefined,
  decide(command, state) {
    switch (command.type) {
      case 'EnrollTotp':
        return enroll(command, state);
      case 'ValidateTotpEnrollment':
        return validateEnrollment(command.data, state);
      case 'CreateTotpChallenge':
        return createChallenge(command, state);
      case 'ValidateTotpChallenge':
        return validateChallenge(command, state);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'TotpEnrolled':
        return { enrollment: toEnrollment(event.data), challenge: null, failed_attempts: 0, locked_until: null };
      case 'TotpEnrollmentValidated':
        return { ...state, enrollment: state.enrollment && evolveEnrollment(state.enrollment, event), failed_attempts: 0 };
      case 'TotpChallengeCreated': {
        const { request_id, counter, sent_at, at } = event.data;
        const challenge = { request_id, counter, sent_at, challenged_at: at, success: false, recovery_code_used: false };
        return { ...state, challenge };
      }
      case 'TotpChallengeSucceeded': {
        const challenge = state.challenge && {
          ...state.challenge,
          success: true,
          recovery_code_used: event.data.recovery_code_hash !== null,
        };
        return {
          ...state,
          challenge,
          enrollment: state.enrollment && evolveEnrollment(state.enrollment, event),
          failed_attempts: 0,
        };
      }
      case 'TotpCodeRejected':
        return event.data.locked_until
          ? { ...state, failed_attempts: 0, locked_until: event.data.locked_until }
          : { ...state, failed_attempts: event.data.failed_attempts };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
