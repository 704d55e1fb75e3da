import { catalogueError } from '@sesame/contracts';
import type {
  DirectorySyncData,
  DirectorySyncEvent,
  DirectorySyncEventData,
  DirectorySyncProvider,
  Environment,
} from '@sesame/contracts';
import { fail, ownedByDeletedOrganization } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';

/** The directory sync of one organization and environment: one stream per pair, so "only one" holds by construction. */
export type DirectorySyncState = { status: 'none' } | { status: 'active'; directory_sync: DirectorySyncData };

export interface IssuedToken {
  hash: string;
  hint: string;
  provider_key: string;
}

export type DirectorySyncCommand =
  | {
      type: 'CreateDirectorySync';
      data: {
        id: string;
        organization_id: string;
        organization_domain: string;
        environment: Environment;
        provider_type: DirectorySyncProvider;
        active: boolean;
        token: IssuedToken;
        at: string;
      };
    }
  | {
      type: 'UpdateDirectorySync';
      data: { provider_type?: DirectorySyncProvider; active?: boolean; token?: IssuedToken; at: string };
    }
  /** Its organization was deleted; nothing to do when there is none or it belongs to another organization (of the same domain, since). */
  | { type: 'DeleteDirectorySync'; data: OrganizationDeletion };

type Create = Extract<DirectorySyncCommand, { type: 'CreateDirectorySync' }>;
type Update = Extract<DirectorySyncCommand, { type: 'UpdateDirectorySync' }>;

const eventData = (
  directory: DirectorySyncData,
  change: DirectorySyncEventData['change'],
  new_values: Record<string, unknown>,
  previous_values: Record<string, unknown>,
): DirectorySyncEventData => ({
  change,
  directory_sync_id: directory.id,
  provider: directory.provider_type,
  resource: { id: directory.id, type: 'directory_sync', changes: { new_values, previous_values } },
});

function create(command: Create, state: DirectorySyncState): DirectorySyncEvent[] {
  if (state.status !== 'none') fail(catalogueError('directory_sync_already_exists'));
  const { at, ...fields } = command.data;
  const directory: DirectorySyncData = { ...fields, inserted_at: at, updated_at: at };
  const values = { active: directory.active, provider_type: directory.provider_type };
  return [
    { type: 'DirectorySyncCreated', data: { directory_sync: directory, event: eventData(directory, 'created', values, {}) } },
  ];
}

function update(command: Update, state: DirectorySyncState): DirectorySyncEvent[] {
  if (state.status !== 'active') fail(catalogueError('resource_not_found'));
  const current = state.directory_sync;
  const { token, at, ...changes } = command.data;
  const new_values: Record<string, unknown> = {};
  const previous_values: Record<string, unknown> = {};
  for (const key of ['active', 'provider_type'] as const)
    if (changes[key] !== undefined && changes[key] !== current[key]) {
      new_values[key] = changes[key];
      previous_values[key] = current[key];
    }
  const events: DirectorySyncEvent[] = [];
  let directory = current;
  if (Object.keys(new_values).length > 0) {
    directory = { ...directory, ...new_values, updated_at: at };
    events.push({
      type: 'DirectorySyncUpdated',
      data: { directory_sync: directory, event: eventData(directory, 'updated', new_values, previous_values) },
    });
  }
  if (token) {
    const rotated = { ...directory, token, updated_at: at };
    const hints = (hint: string) => ({ auth_secret_token: { hint } });
    events.push({
      type: 'DirectorySyncTokenRotated',
      data: { directory_sync: rotated, event: eventData(rotated, 'updated', hints(token.hint), hints(directory.token.hint)) },
    });
  }
  return events;
}

export const directorySyncDecider: Decider<DirectorySyncState, DirectorySyncCommand, DirectorySyncEvent> = {
  initialState: () => ({ status: 'none' }),
  tenant: (state) => {
    if (state.status !== 'active' || !state.directory_sync.organization_id) return undefined;
    return { organization_id: state.directory_sync.organization_id, environment: state.directory_sync.environment };
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateDirectorySync':
        return create(command, state);
      case 'UpdateDirectorySync':
        return update(command, state);
      case 'DeleteDirectorySync': {
        if (state.status !== 'active' || !ownedByDeletedOrganization(state.directory_sync.organization_id, command.data))
          return [];
        const { reason, at } = command.data;
        const { id, organization_id, organization_domain, environment } = state.directory_sync;
        const owner = organization_id ? { organization_id } : {};
        return [
          {
            type: 'DirectorySyncDeleted',
            data: { directory_sync_id: id, ...owner, organization_domain, environment, reason, at },
          },
        ];
      }
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(_state, event) {
    switch (event.type) {
      case 'DirectorySyncCreated':
      case 'DirectorySyncUpdated':
      case 'DirectorySyncTokenRotated':
        return { status: 'active', directory_sync: event.data.directory_sync };
      case 'DirectorySyncDeleted':
        return { status: 'none' };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
