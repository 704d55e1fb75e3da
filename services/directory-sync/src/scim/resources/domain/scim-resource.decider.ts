import type { DirectorySyncEventData, ScimResourceData, ScimResourceEvent, ScimResourceKind } from '@sesame/contracts';
import { scimError } from '@sesame/contracts';
import { fail, tenantOfData } from '@sesame/platform';
import { lookupKeysOf } from './lookup-keys';
import type { Decider } from '@sesame/platform';

/** One SCIM user or group of a directory sync. */
export type ScimResourceState =
  | { status: 'none' }
  | {
      status: 'active' | 'deleted';
      scim_resource: ScimResourceData;
      /** What filters look the resource up by (`lookupKeysOf`). */
      lookup_keys: string[];
    };

type ScimObject = Record<string, unknown>;

export type ScimResourceCommand =
  | {
      type: 'CreateScimResource';
      data: { scim_resource: Omit<ScimResourceData, 'version' | 'created' | 'last_modified'>; at: string };
    }
  | { type: 'ReplaceScimResource'; data: { resource: ScimObject; linked_id: string | null; if_match?: string; at: string } }
  | { type: 'DeleteScimResource'; data: { if_match?: string; at: string } };

export const etagOf = (version: number) => `W/"${version}"`;

/** `userName` is unique in a directory, whatever its case (RFC 7643: `caseExact: false`, `uniqueness: server`). */
export const userNameKey = (directorySyncId: string, userName: string) => `${directorySyncId}:${userName.toLowerCase()}`;

const eventTypes = {
  User: {
    created: 'ScimUserProvisioned',
    updated: 'ScimUserUpdated',
    deactivated: 'ScimUserDeactivated',
    deleted: 'ScimUserDeleted',
  },
  Group: {
    created: 'ScimGroupCreated',
    updated: 'ScimGroupUpdated',
    deactivated: 'ScimGroupUpdated',
    deleted: 'ScimGroupDeleted',
  },
} as const satisfies Record<ScimResourceKind, Record<DirectorySyncEventData['change'], ScimResourceEvent['type']>>;

/** Top-level attributes that differ, with their new and previous values (absent ones are null). */
export function changesBetween(next: ScimObject, previous: ScimObject): DirectorySyncEventData['resource']['changes'] {
  const new_values: ScimObject = {};
  const previous_values: ScimObject = {};
  for (const key of new Set([...Object.keys(next), ...Object.keys(previous)]))
    if (JSON.stringify(next[key]) !== JSON.stringify(previous[key])) {
      new_values[key] = next[key] ?? null;
      previous_values[key] = previous[key] ?? null;
    }
  return { new_values, previous_values };
}

function changeEvent(change: DirectorySyncEventData['change'], data: ScimResourceData, previous: ScimObject): ScimResourceEvent {
  const event: DirectorySyncEventData = {
    change,
    directory_sync_id: data.directory_sync_id,
    provider: data.provider,
    resource: {
      id: data.id,
      type: data.kind === 'User' ? 'user' : 'group',
      changes: change === 'deleted' ? { new_values: {}, previous_values: previous } : changesBetween(data.resource, previous),
    },
  };
  return { type: eventTypes[data.kind][change], data: { scim_resource: data, event } } as ScimResourceEvent;
}

/** A live resource at the version `If-Match` names (any, without one): 404 or 412 otherwise. */
export function requireLive(state: ScimResourceState, ifMatch: string | undefined): ScimResourceData {
  if (state.status !== 'active') fail(scimError(404, 'Resource not found'));
  if (
    ifMatch !== undefined &&
    ifMatch !== '*' &&
    !ifMatch.split(',').some((tag) => tag.trim() === etagOf(state.scim_resource.version))
  )
    fail(scimError(412, `The resource version is ${etagOf(state.scim_resource.version)}, not ${ifMatch}`));
  return state.scim_resource;
}

function decide(command: ScimResourceCommand, state: ScimResourceState): ScimResourceEvent[] {
  switch (command.type) {
    case 'CreateScimResource': {
      if (state.status !== 'none') fail(scimError(409, 'The resource already exists', 'uniqueness'));
      const { at, scim_resource } = command.data;
      return [changeEvent('created', { ...scim_resource, version: 1, created: at, last_modified: at }, {})];
    }
    case 'ReplaceScimResource': {
      const current = requireLive(state, command.data.if_match);
      const { resource, linked_id, at } = command.data;
      if (JSON.stringify(resource) === JSON.stringify(current.resource) && linked_id === current.linked_id) return [];
      const next = { ...current, resource, linked_id, version: current.version + 1, last_modified: at };
      const deactivated = current.kind === 'User' && current.resource.active !== false && resource.active === false;
      return [changeEvent(deactivated ? 'deactivated' : 'updated', next, current.resource)];
    }
    case 'DeleteScimResource': {
      const current = requireLive(state, command.data.if_match);
      const next = { ...current, version: current.version + 1, last_modified: command.data.at };
      return [changeEvent('deleted', next, current.resource)];
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
    }
  }
}

function evolve(_state: ScimResourceState, event: ScimResourceEvent): ScimResourceState {
  const data = event.data.scim_resource;
  const status = event.type === 'ScimUserDeleted' || event.type === 'ScimGroupDeleted' ? 'deleted' : 'active';
  return { status, scim_resource: data, lookup_keys: lookupKeysOf(data) };
}

export const scimResourceDecider: Decider<ScimResourceState, ScimResourceCommand, ScimResourceEvent> = {
  initialState: () => ({ status: 'none' }),
  // The directory sync's organization, when the resource was created naming it.
  tenant: (state) => (state.status === 'none' ? undefined : tenantOfData(state.scim_resource)),
  decide,
  evolve,
};
