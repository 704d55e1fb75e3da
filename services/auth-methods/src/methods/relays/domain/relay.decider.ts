import { catalogueError, fieldError } from '@sesame/contracts';
import type { Environment, RelayData, RelayEvent, UpdateRelayBody } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import { ownedByDeletedOrganization } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';
import { sourceOrganizationsOf } from './relay-policy';

export const partnerWithDomainsMessage = 'must be an organization without allowed email domains';

export interface RelayState {
  relay: RelayData | null;
}

export type RelayCommand =
  | { type: 'CreateRelay'; data: { relay: RelayData; partner_allowed_email_domains: string[] } }
  /** `source_organization_ids`: the ids of `changes.source_organizations` (by domain), given with them. */
  | { type: 'UpdateRelay'; data: { changes: UpdateRelayBody; source_organization_ids?: Record<string, string>; at: string } }
  | { type: 'DeleteRelay'; data: { at: string } }
  /** Identity deleted the organization `domain` of `environment`: the relay into it goes, or it stops accepting its users. */
  | { type: 'ForgetOrganization'; data: { domain: string; environment: Environment; deletion: OrganizationDeletion } };

const requireRelay = (state: RelayState): RelayData => state.relay ?? fail(catalogueError('resource_not_found'));

function create(command: Extract<RelayCommand, { type: 'CreateRelay' }>, state: RelayState): RelayEvent[] {
  const { relay, partner_allowed_email_domains } = command.data;
  if (state.relay) return [];
  if (partner_allowed_email_domains.length > 0) fail(fieldError('partner_domain', partnerWithDomainsMessage));
  return [{ type: 'RelayCreated', data: { relay, at: relay.inserted_at } }];
}

function update(command: Extract<RelayCommand, { type: 'UpdateRelay' }>, state: RelayState): RelayEvent[] {
  const current = requireRelay(state);
  const { changes, source_organization_ids, at } = command.data;
  const relay: RelayData = {
    ...current,
    ...(changes.source_organizations ? { source_organizations: [...new Set(changes.source_organizations)] } : {}),
    ...(source_organization_ids ? { source_organization_ids } : {}),
    partner_redirect_uri: changes.partner_redirect_uri ?? current.partner_redirect_uri,
    jit: changes.jit ?? current.jit,
    session_duration_minutes: changes.session_duration_minutes ?? current.session_duration_minutes,
  };
  if (JSON.stringify(relay) === JSON.stringify(current)) return [];
  return [{ type: 'RelayUpdated', data: { relay, at } }];
}

/**
 * A deleted organization is forgotten: a relay into it (its `organization_id`) is deleted, and a
 * relay taking its users no longer names it, so an organization created later with the same domain
 * gets no relay it was never given. The organization's id decides, not its domain: a relay into a
 * later organization of the same domain, or naming one as a source (its id recorded when the
 * sources were set), is left alone by a late or redelivered deletion. A source recorded before
 * sources named their id goes with its domain's deletion.
 */
function forget(command: Extract<RelayCommand, { type: 'ForgetOrganization' }>, state: RelayState): RelayEvent[] {
  const { relay } = state;
  const { domain, environment, deletion } = command.data;
  if (!relay || relay.environment !== environment) return [];
  if (relay.partner_domain === domain)
    return relay.organization_id === deletion.organization_id ? [{ type: 'RelayDeleted', data: { relay, at: deletion.at } }] : [];
  const sources = sourceOrganizationsOf(relay);
  if (!sources.includes(domain) || !ownedByDeletedOrganization(relay.source_organization_ids?.[domain], deletion)) return [];
  return [{ type: 'RelayUpdated', data: { relay: withoutSource(relay, domain), at: deletion.at } }];
}

function withoutSource(relay: RelayData, domain: string): RelayData {
  const source_organizations = sourceOrganizationsOf(relay).filter((source) => source !== domain);
  if (!relay.source_organization_ids) return { ...relay, source_organizations };
  const { [domain]: _forgotten, ...source_organization_ids } = relay.source_organization_ids;
  return { ...relay, source_organizations, source_organization_ids };
}

/** A relay to a partner organization: created, updated, deleted, or forgotten with an organization. */
export const relayDecider: Decider<RelayState, RelayCommand, RelayEvent> = {
  initialState: () => ({ relay: null }),
  tenant: ({ relay }) => (relay ? { organization_id: relay.organization_id, environment: relay.environment } : undefined),
  decide(command, state) {
    switch (command.type) {
      case 'CreateRelay':
        return create(command, state);
      case 'UpdateRelay':
        return update(command, state);
      case 'DeleteRelay':
        return [{ type: 'RelayDeleted', data: { relay: requireRelay(state), at: command.data.at } }];
      case 'ForgetOrganization':
        return forget(command, state);
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
