import type {
  Environment,
  PasswordAttemptEvent,
  PasswordCodeEvent,
  PasswordConnectionEvent,
  PasswordEvent,
} from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateType } from '@sesame/platform';
import { passwordAttemptsDecider } from './domain/password-attempts.decider';
import type { PasswordAttemptsCommand, PasswordAttemptsState } from './domain/password-attempts.decider';
import { passwordCodeDecider } from './domain/password-code.decider';
import type { PasswordCodeCommand, PasswordCodeState } from './domain/password-code.decider';
import { passwordConnectionDecider } from './domain/password-connection.decider';
import type { PasswordConnectionCommand, PasswordConnectionState } from './domain/password-connection.decider';
import { passwordDecider } from './domain/password.decider';
import type { PasswordCommand, PasswordState } from './domain/password.decider';

/**
 * The key of an organization's password connection: its id in its environment
 * (`passwordConnection-<environment>:<organization_id>`). A connection recorded before connections
 * were keyed by organization is under its domain instead (`passwordConnectionLegacyKey`).
 */
export const passwordConnectionKey = (environment: Environment, organizationId: string) => `${environment}:${organizationId}`;
export const passwordConnectionLegacyKey = (environment: Environment, organizationDomain: string) =>
  `${environment}:${organizationDomain}`;

/** A password connection, named by `passwordConnectionKey` (or `passwordConnectionLegacyKey`). */
export const passwordConnectionAggregate: AggregateType<
  PasswordConnectionState,
  PasswordConnectionCommand,
  PasswordConnectionEvent
> = {
  decider: passwordConnectionDecider,
  stream: (key) => streamName('passwordConnection', key),
};

/** A user's password, named by the user's id. */
export const passwordAggregate: AggregateType<PasswordState, PasswordCommand, PasswordEvent> = {
  decider: passwordDecider,
  stream: (userId) => streamName('password', userId),
};

/**
 * The failed and successful attempts of an email, named by `passwordAttemptsKey`: by the
 * organization's domain (the lockout counters; a challenge reads them before the organization is known).
 */
export const passwordAttemptsAggregate: AggregateType<PasswordAttemptsState, PasswordAttemptsCommand, PasswordAttemptEvent> = {
  decider: passwordAttemptsDecider,
  stream: (key) => streamName('passwordAttempts', key),
};
export const passwordAttemptsKey = (environment: Environment, organizationDomain: string, email: string) =>
  `${environment}:${organizationDomain}:${email.trim().toLowerCase()}`;

/** A one-time password code, named by the SHA-256 of the code. */
export const passwordCodeAggregate: AggregateType<PasswordCodeState, PasswordCodeCommand, PasswordCodeEvent> = {
  decider: passwordCodeDecider,
  stream: (codeHash) => streamName('passwordCode', codeHash),
};
