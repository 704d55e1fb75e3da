import type { CodeExchangeFailureEvent } from '@sesame/contracts';
import type { Decider } from '@sesame/platform';

/** Failures recorded per code: an attacker replaying a code writes no more than this. */
export const maxRecordedCodeExchangeFailures = 10;

export interface CodeExchangeFailuresState {
  recorded: number;
}

export type CodeExchangeFailuresCommand = { type: 'RecordCodeExchangeFailure'; data: CodeExchangeFailureEvent['data'] };

/**
 * The refused exchanges of one issued code, for the organization's sign-in activity: each is
 * recorded, up to `maxRecordedCodeExchangeFailures` (the next ones are refused as before, unrecorded).
 * Their data name the code's organization id and environment (when the sign-in named them): the envelope's tenant.
 */
export const codeExchangeFailuresDecider: Decider<
  CodeExchangeFailuresState,
  CodeExchangeFailuresCommand,
  CodeExchangeFailureEvent
> = {
  initialState: () => ({ recorded: 0 }),
  decide(command, state) {
    if (state.recorded >= maxRecordedCodeExchangeFailures) return [];
    return [{ type: 'AuthorizationCodeExchangeFailed', data: command.data }];
  },
  evolve(state, event) {
    switch (event.type) {
      case 'AuthorizationCodeExchangeFailed':
        return { recorded: state.recorded + 1 };
      default: {
        const unknown: never = event.type;
        return unknown;
      }
    }
  },
};
