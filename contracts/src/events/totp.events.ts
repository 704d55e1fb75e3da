import type { TotpConnection } from '../entities/auth-methods.schema';
import type { Tenant } from './tenant';

/** The organization and environment of the enrollment, for webhooks (absent from events recorded before they were added). */
export type TotpEventTenant = Partial<Tenant>;

export type TotpConnectionEvent =
  | { type: 'TotpConnectionUpdated'; data: Tenant & { connection: TotpConnection; at: string } }
  /** Its organization was deleted: the defaults apply again. */
  | { type: 'TotpConnectionDeleted'; data: Tenant & { reason: 'organization_deleted'; at: string } };

export type TotpEnrollmentEvent =
  | {
      type: 'TotpEnrolled';
      data: Tenant & {
        user_id: string;
        email: string;
        method: TotpConnection['method'];
        /** Seconds a code lives: the TOTP period (app) or the SMS code lifetime. */
        period: number;
        /** The shared secret (base32), AES-256-GCM encrypted with the configured key ring. */
        encrypted_secret: string;
        /** SMS method: HOTP counter of `first_verification_code`. */
        first_counter: number | null;
        enrollment_nb: number;
        /** SHA-256 of each recovery code (forced re-enrollment only). */
        recovery_code_hashes: string[];
        at: string;
      };
    }
  | {
      type: 'TotpEnrollmentValidated';
      data: TotpEventTenant & { user_id: string; enrollment_nb: number; step: number; at: string };
    }
  | {
      type: 'TotpChallengeCreated';
      data: TotpEventTenant & {
        user_id: string;
        request_id: string;
        /** SMS method: HOTP counter of the code sent. */
        counter: number | null;
        sent_at: string | null;
        at: string;
      };
    }
  | {
      type: 'TotpChallengeSucceeded';
      data: TotpEventTenant & {
        user_id: string;
        request_id: string;
        step: number | null;
        recovery_code_hash: string | null;
        at: string;
      };
    }
  /** A wrong code; `locked_until` is set when it was one failure too many. */
  | {
      type: 'TotpCodeRejected';
      data: TotpEventTenant & { user_id: string; failed_attempts: number; locked_until: string | null; at: string };
    };
