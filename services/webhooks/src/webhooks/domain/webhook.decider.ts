import { catalogueError, fieldError } from '@sesame/contracts';
import type { Environment, SealedSignatureKey, WebhookDomainEvent, WebhookSettings } from '@sesame/contracts';
import { fail, ownedByDeletedOrganization } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';

export interface WebhookState extends WebhookSettings {
  status: 'none' | 'active' | 'deleted';
  id: string;
  environment: Environment;
  organization_domain: string | null;
  /** The id of the organization it is scoped to; null without a scope or for one recorded before scopes named it. */
  organization_id: string | null;
  /** The current key first, then previous ones still valid until their `expires_at`. */
  signature_keys: SealedSignatureKey[];
  inserted_at: string;
  updated_at: string;
}

export type WebhookCommand =
  | {
      type: 'CreateWebhook';
      data: WebhookSettings & {
        id: string;
        environment: Environment;
        signature_key: string;
        /** Why the target cannot receive deliveries (looked up before deciding), or null. */
        target_problem: string | null;
        /** Whether `organization_domain` is a live organization of `environment` (looked up before deciding; true when null). */
        organization_found: boolean;
        /** Its id (null without a scope). */
        organization_id: string | null;
        at: string;
      };
    }
  | {
      type: 'UpdateWebhook';
      data: {
        changes: Partial<WebhookSettings>;
        target_problem: string | null;
        organization_found: boolean;
        organization_id: string | null;
        at: string;
      };
    }
  /** Identity deleted the organization `domain` (delivered at least once, possibly late). */
  | { type: 'DeleteWebhookOfDeletedOrganization'; data: OrganizationDeletion & { domain: string } }
  | { type: 'RotateSignatureKey'; data: { signature_key: string; overlap_ms: number; at: string } }
  | { type: 'DeleteWebhook'; data: { at: string } };

const settingKeys = ['name', 'active', 'event_codes', 'target_url', 'organization_domain'] as const;

function requireLive(state: WebhookState): void {
  if (state.status !== 'active') fail(catalogueError('resource_not_found'));
}

function create(command: Extract<WebhookCommand, { type: 'CreateWebhook' }>, state: WebhookState): WebhookDomainEvent[] {
  if (state.status !== 'none') fail(catalogueError('conflict'));
  const { signature_key, target_problem, organization_found, ...data } = command.data;
  if (target_problem) fail(fieldError('target_url', target_problem));
  if (!organization_found) fail(catalogueError('resource_not_found'));
  return [
    {
      type: 'WebhookCreated',
      data: {
        ...data,
        organization_domain: data.organization_domain ?? null,
        signature_key: { sealed: signature_key, expires_at: null },
      },
    },
  ];
}

function update(command: Extract<WebhookCommand, { type: 'UpdateWebhook' }>, state: WebhookState): WebhookDomainEvent[] {
  requireLive(state);
  const { changes, target_problem, organization_found, organization_id, at } = command.data;
  if (changes.target_url !== undefined && target_problem) fail(fieldError('target_url', target_problem));
  if (!organization_found) fail(catalogueError('resource_not_found'));
  const changed: Partial<WebhookSettings> = {};
  for (const key of settingKeys) {
    const value = changes[key];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(state[key])) Object.assign(changed, { [key]: value });
  }
  if (Object.keys(changed).length === 0) return [];
  const scope = changed.organization_domain === undefined ? {} : { organization_id };
  return [{ type: 'WebhookUpdated', data: { changes: changed, ...scope, at } }];
}

/**
 * A webhook scoped to the deleted organization goes with it (its pending deliveries are cancelled);
 * one scoped to a later organization of the same domain has another id: a late or redelivered
 * deletion leaves it alone. One scoped before scopes named their organization is its domain's.
 */
function deleteWithOrganization(
  command: Extract<WebhookCommand, { type: 'DeleteWebhookOfDeletedOrganization' }>,
  state: WebhookState,
): WebhookDomainEvent[] {
  const { domain, at, ...deletion } = command.data;
  if (state.status !== 'active' || state.organization_domain !== domain) return [];
  if (!ownedByDeletedOrganization(state.organization_id, deletion)) return [];
  return [{ type: 'WebhookDeleted', data: { at, reason: deletion.reason } }];
}

function rotate(command: Extract<WebhookCommand, { type: 'RotateSignatureKey' }>, state: WebhookState): WebhookDomainEvent[] {
  requireLive(state);
  const { signature_key, overlap_ms, at } = command.data;
  const previous_expires_at = new Date(Date.parse(at) + overlap_ms).toISOString();
  return [
    {
      type: 'WebhookSignatureKeyRotated',
      data: { signature_key: { sealed: signature_key, expires_at: null }, previous_expires_at, at },
    },
  ];
}

export const webhookDecider: Decider<WebhookState, WebhookCommand, WebhookDomainEvent> = {
  initialState: () => ({
    status: 'none',
    id: '',
    environment: 'sandbox',
    organization_domain: null,
    organization_id: null,
    name: '',
    active: false,
    event_codes: [],
    target_url: '',
    signature_keys: [],
    inserted_at: '',
    updated_at: '',
  }),
  tenant: ({ organization_id, environment }) => (organization_id ? { organization_id, environment } : undefined),
  decide(command, state) {
    switch (command.type) {
      case 'CreateWebhook':
        return create(command, state);
      case 'UpdateWebhook':
        return update(command, state);
      case 'RotateSignatureKey':
        return rotate(command, state);
      case 'DeleteWebhookOfDeletedOrganization':
        return deleteWithOrganization(command, state);
      case 'DeleteWebhook':
        requireLive(state);
        return [{ type: 'WebhookDeleted', data: { at: command.data.at } }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'WebhookCreated': {
        const { signature_key, at, organization_id, ...data } = event.data;
        const scope = { organization_domain: data.organization_domain ?? null, organization_id: organization_id ?? null };
        return {
          ...state,
          ...data,
          ...scope,
          status: 'active',
          signature_keys: [signature_key],
          inserted_at: at,
          updated_at: at,
        };
      }
      case 'WebhookUpdated': {
        const { changes, at } = event.data;
        const rescoped = changes.organization_domain !== undefined ? { organization_id: event.data.organization_id ?? null } : {};
        return { ...state, ...changes, ...rescoped, updated_at: at };
      }
      case 'WebhookSignatureKeyRotated': {
        const { signature_key, previous_expires_at, at } = event.data;
        const previous = state.signature_keys
          .map((key) => (key.expires_at === null ? { ...key, expires_at: previous_expires_at } : key))
          .filter((key) => (key.expires_at as string) > at);
        return { ...state, signature_keys: [signature_key, ...previous], updated_at: at };
      }
      case 'WebhookDeleted':
        return { ...state, status: 'deleted', updated_at: event.data.at };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};

/** The keys that sign a delivery at `now`: the current one and previous ones not yet expired. */
export function signingKeys(state: Pick<WebhookState, 'signature_keys'>, now: string): string[] {
  return state.signature_keys.filter((key) => key.expires_at === null || key.expires_at > now).map((key) => key.sealed);
}
