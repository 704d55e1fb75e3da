import { catalogueError } from '@sesame/contracts';
import type { AppError, PasswordAttemptEvent } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

export interface PasswordAttemptsState {
  /** Failures since the last success. */
  failures: number;
  last_failure_at: string | null;
}

export type PasswordAttemptsCommand =
  { type: 'RecordPasswordFailure'; data: { at: string } } | { type: 'RecordPasswordSuccess'; data: { at: string } };

/** Failures answered at once before delays start. */
export const freeFailures = 3;
/** Failures after which the email is locked for `lockMs`. */
export const lockAfterFailures = 10;
export const lockMs = 15 * 60_000;
const maxDelayMs = 60_000;

/**
 * When the next attempt may be checked: at once for the first failures, then after a delay that
 * doubles with each failure (1 s, 2 s, 4 s... at most a minute), and after `lockAfterFailures`
 * failures the email is locked for 15 minutes. A success starts over.
 */
export function nextAttemptAt(state: PasswordAttemptsState): number {
  if (state.failures < freeFailures || state.last_failure_at === null) return 0;
  const last = Date.parse(state.last_failure_at);
  if (state.failures >= lockAfterFailures) return last + lockMs;
  return last + Math.min(1_000 * 2 ** (state.failures - freeFailures), maxDelayMs);
}

/**
 * The refusal of an outcome recorded while the email is delayed or locked: the challenge then
 * answers `too_many_attempts`, whatever the password was.
 */
export const attemptTooSoon: AppError = catalogueError('rate_limited', 'too_many_attempts');

/**
 * Each outcome is recorded only where the schedule allows the attempt at its time: parallel
 * challenges for one email, checked on the same state, are appended one after the other (the
 * expected revision), and those that find the email delayed or locked by the others' failures
 * are refused. So a burst of guesses gets no more answers than one guess after the other.
 */
export const passwordAttemptsDecider: Decider<PasswordAttemptsState, PasswordAttemptsCommand, PasswordAttemptEvent> = {
  initialState: () => ({ failures: 0, last_failure_at: null }),
  decide(command, state) {
    if (Date.parse(command.data.at) < nextAttemptAt(state)) fail(attemptTooSoon);
    switch (command.type) {
      case 'RecordPasswordFailure':
        return [{ type: 'PasswordChallengeFailed', data: command.data }];
      case 'RecordPasswordSuccess':
        return [{ type: 'PasswordChallengeSucceeded', data: command.data }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'PasswordChallengeFailed':
        return { failures: state.failures + 1, last_failure_at: event.data.at };
      case 'PasswordChallengeSucceeded':
        return { failures: 0, last_failure_at: null };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
