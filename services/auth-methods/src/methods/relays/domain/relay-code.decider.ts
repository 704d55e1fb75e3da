import { oauthError } from '@sesame/contracts';
import type { RelayCodeEvent } from '@sesame/contracts';
import { fail, tenantOfData } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import type { TokenClient } from '../../../core/oauth/token-endpoint';

/** How long the partner has to exchange a relay code. */
export const relayCodeTtlSeconds = 120;
export const invalidRelayCodeMessage = 'The relay code is unknown, expired or already used';

type Issued = Extract<RelayCodeEvent, { type: 'RelayCodeIssued' }>['data'];

export interface RelayCodeState {
  issued: Issued | null;
  redeemed_at: string | null;
}

export type RelayCodeCommand =
  | { type: 'IssueRelayCode'; data: Issued }
  /** `client`: the partner's API key, authenticated at the token endpoint. */
  | { type: 'RedeemRelayCode'; data: { code_hash: string; client: TokenClient; at: string } };

function redeem(command: Extract<RelayCodeCommand, { type: 'RedeemRelayCode' }>, state: RelayCodeState): RelayCodeEvent[] {
  const { issued, redeemed_at } = state;
  const { code_hash, client, at } = command.data;
  // A code of the other environment answers as an unknown one: its existence is not revealed there.
  const usable = issued && !redeemed_at && at <= issued.expires_at && client.environment === issued.environment;
  if (!usable) fail(oauthError('invalid_grant', invalidRelayCodeMessage));
  return [{ type: 'RelayCodeRedeemed', data: { code_hash, client_id: client.client_id, at } }];
}

/** The end of the partner session a relay code opens at `at` (`session_duration_minutes`). */
export const relaySessionEnd = (issued: Issued, at: Date): string =>
  new Date(at.getTime() + issued.session_duration_minutes * 60_000).toISOString();

/** A one-time relay code: issued once, redeemed once before it expires (replicas race on the stream revision). */
export const relayCodeDecider: Decider<RelayCodeState, RelayCodeCommand, RelayCodeEvent> = {
  initialState: () => ({ issued: null, redeemed_at: null }),
  // The partner organization's, when the code names it.
  tenant: ({ issued }) => tenantOfData(issued),
  decide(command, state) {
    switch (command.type) {
      case 'IssueRelayCode':
        return state.issued ? [] : [{ type: 'RelayCodeIssued', data: command.data }];
      case 'RedeemRelayCode':
        return redeem(command, state);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'RelayCodeIssued':
        return { ...state, issued: event.data };
      case 'RelayCodeRedeemed':
        return { ...state, redeemed_at: event.data.at };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
