import type { Environment, User } from '@sesame/contracts';

/**
 * Whether the API answers a sign-in secret (magic link, password-reset link) to the caller as well
 * as emailing it: the sandbox does, so that integrators can test without a mailbox.
 */
export const answersMailedSecrets = (environment: Environment): boolean => environment === 'sandbox';

/**
 * The address a mailed secret proves once it comes back: the one it was sent to, when the email
 * alone carried it; null in the sandbox (the caller had it too).
 */
export const provenAddress = (environment: Environment, email: string): string | null =>
  answersMailedSecrets(environment) ? null : email;

/** Whether `user` still has the address a secret proved (an email changed since proves nothing). */
export const stillHasProvenAddress = (user: Pick<User, 'email'>, proven: string | null | undefined): boolean =>
  !!proven && user.email.toLowerCase() === proven.toLowerCase();
