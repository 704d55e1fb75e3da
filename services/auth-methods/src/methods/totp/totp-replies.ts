import type { TotpChallenge, TotpEnrollment } from '@sesame/contracts';
import type { RecordedEvent } from '@sesame/platform';
import type { TotpEnrollmentData, TotpEnrollmentState } from './domain/totp-enrollment.decider';

/** What an enrollment answer shows once, at creation: never stored in clear. */
export interface ShownOnce {
  uri?: string;
  first_verification_code?: string;
  recovery_codes?: string[];
}

export const toTotpEnrollment = (enrollment: TotpEnrollmentData, shown: ShownOnce = {}): TotpEnrollment => ({
  email: enrollment.email,
  enrolled_totp_at: enrollment.enrolled_at,
  enrolled_at: enrollment.enrolled_at,
  enrollment_totp_nb: enrollment.enrollment_nb,
  enrollment_nb: enrollment.enrollment_nb,
  first_verification_code: shown.first_verification_code ?? null,
  last_recovery_acknowledgement_at: null,
  last_recovery_code_at: enrollment.last_recovery_code_at,
  recovery_codes: shown.recovery_codes?.join('\n') ?? null,
  uri: shown.uri ?? null,
  validated_enrollment_at: enrollment.validated_at,
});

export const toTotpChallenge = (state: TotpEnrollmentState, code: string | null = null): TotpChallenge => {
  const challenge = state.challenge as NonNullable<TotpEnrollmentState['challenge']>;
  return {
    request_id: challenge.request_id,
    sent_at: challenge.sent_at,
    challenged_at: challenge.challenged_at,
    code,
    success: challenge.success,
    recovery_code_used: challenge.recovery_code_used,
  };
};

export const rejectedCode = (events: RecordedEvent[]) => events.some((event) => event.type === 'TotpCodeRejected');
