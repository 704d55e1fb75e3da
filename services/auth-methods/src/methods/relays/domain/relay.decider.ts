import { catalogueError, fieldError } from '@sesame/contracts';
import type { Environment, RelayData, RelayEvent, UpdateRelayBody } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';
import { sourceOrganizationsOf } from './relay-policy';

export const partnerWithDomainsMessage = 'must be an organization without allowed email domains';

export interface RelayState {
  relay: RelayData | null;
  /** When the source organizations were last set (the relay's creation or the update that changed them). */
  sources_at?: string;
}

export type RelayCommand =
  | { type: 'CreateRelay'; data: { relay: RelayData; partner_allowed_email_domains: string[] } }
  | { type: 'UpdateRelay'; data: { changes: UpdateRelayBody; at: string } }
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

/**
 * A deleted organization is forgotten: a relay into it (its `organization_id`) is deleted, and a
 * relay taking its users no longer names it, so an organization created later with the same domain
 * gets no relay it was never given. A relay into a later organization of the same domain has
 * another `organization_id`: a late or redelivered deletion leaves it alone. Source organizations
 * are named by domain only: a source list set since the deletion (for a new organization of that
 * domain) is left alone by comparing instants, until sources name their organization's id.
 */
function forget(command: Extract<RelayCommand, { type: 'ForgetOrganization' }>, state: RelayState): RelayEvent[] {
  const { relay } = state;
  const { domain, environment, deletion } = command.data;
  if (!relay || relay.environment !== environment) return [];
  if (relay.partner_domain === domain)
    return relay.organization_id === deletion.organization_id ? [{ type: 'RelayDeleted', data: { relay, at: deletion.at } }] : [];
  const sources = sourceOrganizationsOf(relay);
  if (!sources.includes(domain) || !sourcesSetBefore(state, relay, deletion)) return [];
  const remaining = sources.filter((source) => source !== domain);
  return [{ type: 'RelayUpdated', data: { relay: { ...relay, source_organizations: remaining }, at: deletion.at } }];
}

/**
 * Whether the source organizations were set before the organization's deletion: sources are
 * organization domains, not ids, so the instants decide (a list set since names a later organization).
 */
const sourcesSetBefore = (state: RelayState, relay: RelayData, deletion: OrganizationDeletion) =>
  Date.parse(state.sources_at ?? relay.inserted_at) <= Date.parse(deletion.organization_deleted_at);

const sameSources = (a: RelayData | null, b: RelayData) =>
  JSON.stringify(a ? sourceOrganizationsOf(a) : null) === JSON.stringify(sourceOrganizationsOf(b));

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
        return { relay: event.data.relay, sources_at: event.data.at };
      case 'RelayUpdated': {
        const sourcesAt = sameSources(state.relay, event.data.relay) ? state.sources_at : event.data.at;
        return { relay: event.data.relay, ...(sourcesAt ? { sources_at: sourcesAt } : {}) };
      }
      case 'RelayDeleted':
        return { relay: null };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
