import type { Environment } from '../common/environment.schema';
import type { Tenant } from './tenant';

export interface PasswordConnectionSettings {
  active: boolean;
  plain_text_min_length: number;
  plain_text_max_length: number;
  pepper_rotation_period: number;
}

/**
 * Stream `passwordConnection-<environment>:<organization_id>` (`passwordConnection-<environment>:<org_domain>`
 * for a connection created before connections were keyed by organization). `id` is the connection's
 * id as the API answers it (named after the environment and the organization's id); `organization_id`
 * the organization that set it (a later organization of the same domain is another). Both are absent
 * from the events written before they were added, as are an update's `environment` and `organization_domain`
 * (its stream no longer names the domain).
 */
export type PasswordConnectionEvent =
  | {
      type: 'PasswordConnectionCreated';
      data: PasswordConnectionSettings & {
        id?: string;
        organization_id?: string;
        environment: Environment;
        organization_domain: string;
        at: string;
      };
    }
  | {
      type: 'PasswordConnectionUpdated';
      data: PasswordConnectionSettings & {
        id?: string;
        organization_id?: string;
        environment?: Environment;
        organization_domain?: string;
        at: string;
      };
    }
  /** Its organization was deleted: the defaults apply again. */
  | {
      type: 'PasswordConnectionDeleted';
      data: Partial<Pick<Tenant, 'organization_id'>> & {
        environment: Environment;
        organization_domain: string;
        reason: 'organization_deleted';
        at: string;
      };
    };

/** An argon2id hash (PHC string) made with the pepper of `pepper_kid` and `pepper_epoch`. */
export interface PasswordHash {
  hash: string;
  pepper_kid: string;
  pepper_epoch: number;
}

/** Stream `password-<user_id>`: a user's password, only ever as its hash. */
export type PasswordEvent =
  | {
      type: 'PasswordSet';
      data: PasswordHash & {
        password_id: string;
        user_id: string;
        environment: Environment;
        organization_domain: string;
        /** The password this one replaces (`password.updated`), null for a user's first (`password.created`); absent from older events. */
        previous_password_id?: string | null;
        at: string;
      };
    }
  | { type: 'PasswordRehashed'; data: PasswordHash & { at: string } };

/**
 * Stream `passwordAttempts-<environment>:<org_domain>:<email>`: the outcome of every password
 * challenge, kept by email so that unknown users are throttled and locked exactly like known ones.
 */
export type PasswordAttemptEvent =
  { type: 'PasswordChallengeFailed'; data: { at: string } } | { type: 'PasswordChallengeSucceeded'; data: { at: string } };

/** Stream `passwordCode-<sha256 of the code>`: a one-time code allowing to set a user's password. */
export type PasswordCodeEvent =
  | {
      type: 'PasswordCodeIssued';
      data: {
        code_hash: string;
        reason: 'reset' | 'renew';
        request_id: string;
        user_id: string;
        environment: Environment;
        organization_domain: string;
        redirect_uri: string | null;
        expires_at: string;
        at: string;
        /** A reset link's address, when the email alone carried it: setting the password verifies that address. */
        proven_email?: string;
      };
    }
  | { type: 'PasswordCodeUsed'; data: { at: string } };
