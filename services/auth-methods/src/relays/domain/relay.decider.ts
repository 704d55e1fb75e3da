import { catalogueError, fieldError } from '@sesame/contracts';
import type { RelayData, RelayEvent, UpdateRelayBody } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

export const partnerWithDomainsMessage = 'must be an organization without allowed email domains';

export interface RelayState {
  relay: RelayData | null;
}

export type RelayCommand =
  | { type: 'CreateRelay'; data: { relay: RelayData; partner_allowed_email_domains: string[] } }
  | { type: 'UpdateRelay'; data: { changes: UpdateRelayBody; at: string } }
  | { type: 'DeleteRelay'; data: { at: string } };

const requireRelay = (state: RelayState): RelayData => state.relay ?? fail(catalogueError('resource_not_found'));

function create(command: Extract<RelayCommand, { type: 'CreateRelay' }>, state: RelayState): RelayEvent[] {
  const { relay, partner_allowed_email_domains } = command.data;
  if (state.relay) return [];
  if (partner_allowed_email_domains.length > 0) fail(fieldError('partner_domain', partnerWithDomainsMessage));
  return [{ type: 'RelayCreated', data: { relay, at: relay.inserted_at } }];
}

function update(command: Extract<RelayCommand, { type: 'UpdateRelay' }>, state: RelayState): RelayEvent[] {
  const current = requireRelay(state);
  const { changes, at } = command.data;
  const relay: RelayData = {
    ...current,
    ...(changes.source_organizations ? { source_organizations: [...new Set(changes.source_organizations)] } : {}),
    partner_redirect_uri: changes.partner_redirect_uri ?? current.partner_redirect_uri,
    jit: changes.jit ?? current.jit,
    session_duration_minutes: changes.session_duration_minutes ?? current.session_duration_minutes,
  };
  if (JSON.stringify(relay) === JSON.stringify(current)) return [];
  return [{ type: 'RelayUpdated', data: { relay, at } }];
}

/** A relay to a partner organization: created, updated, deleted. */
export const relayDecider: Decider<RelayState, RelayCommand, RelayEvent> = {
  initialState: () => ({ relay: null }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateRelay':
        return create(command, state);
      case 'UpdateRelay':
        return update(command, state);
      case 'DeleteRelay':
        return [{ type: 'RelayDeleted', data: { relay: requireRelay(state), at: command.data.at } }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'RelayCreated':
      case 'RelayUpdated':
        return { relay: event.data.relay };
      case 'RelayDeleted':
        return { relay: null };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
