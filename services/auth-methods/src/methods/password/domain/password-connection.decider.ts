import { catalogueError, fieldError } from '@sesame/contracts';
import type { Environment, PasswordConnectionEvent, PasswordConnectionSettings } from '@sesame/contracts';
import { fail, ownedByDeletedOrganization } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';

/** What an organization that never configured password sign-in gets (SPEC.md section 9: active by default). */
export const defaultPasswordConnection: PasswordConnectionSettings = {
  active: true,
  plain_text_min_length: 8,
  plain_text_max_length: 128,
  pepper_rotation_period: 86_400,
};

export type PasswordConnectionState =
  | { status: 'empty' }
  | (PasswordConnectionSettings & {
      status: 'created';
      environment: Environment;
      organization_domain: string;
      /** The organization that set it; null for a connection recorded before connections named it. */
      organization_id: string | null;
      inserted_at: string;
    });

type Scope = {
  /** The connection's id (`passwordConnectionId`), which its events carry for webhooks. */
  id: string;
  organization_id: string;
  environment: Environment;
  organization_domain: string;
  settings: Partial<PasswordConnectionSettings>;
  at: string;
};
export type PasswordConnectionCommand =
  | { type: 'CreatePasswordConnection'; data: Scope }
  | { type: 'UpdatePasswordConnection'; data: Scope }
  /** Its organization was deleted; nothing to do when it was never created or belongs to another organization (of the same domain, since). */
  | { type: 'DeletePasswordConnection'; data: OrganizationDeletion };

export const settingsOf = (state: PasswordConnectionState): PasswordConnectionSettings =>
  state.status === 'empty'
    ? defaultPasswordConnection
    : {
        active: state.active,
        plain_text_min_length: state.plain_text_min_length,
        plain_text_max_length: state.plain_text_max_length,
        pepper_rotation_period: state.pepper_rotation_period,
      };

function merged(state: PasswordConnectionState, changes: Partial<PasswordConnectionSettings>): PasswordConnectionSettings {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const settings = { ...settingsOf(state), ...defined };
  if (settings.plain_text_min_length >= settings.plain_text_max_length)
    fail(fieldError('plain_text_min_length', 'must be lower than plain_text_max_length'));
  return settings;
}

const same = (a: PasswordConnectionSettings, b: PasswordConnectionSettings) =>
  (Object.keys(a) as (keyof PasswordConnectionSettings)[]).every((key) => a[key] === b[key]);

/**
 * The password connection of an organization in an environment. Before it is created the
 * defaults apply; an update of a connection never created creates it with the changes.
 */
export const passwordConnectionDecider: Decider<PasswordConnectionState, PasswordConnectionCommand, PasswordConnectionEvent> = {
  initialState: () => ({ status: 'empty' }),
  tenant: (state) =>
    state.status === 'empty' || !state.organization_id
      ? undefined
      : { organization_id: state.organization_id, environment: state.environment },
  decide(command, state) {
    if (command.type === 'DeletePasswordConnection') {
      if (state.status === 'empty' || !ownedByDeletedOrganization(state.organization_id, command.data)) return [];
      const { environment, organization_domain, organization_id } = state;
      const { reason, at } = command.data;
      const owner = organization_id ? { organization_id } : {};
      return [{ type: 'PasswordConnectionDeleted', data: { ...owner, environment, organization_domain, reason, at } }];
    }
    const { id, organization_id, environment, organization_domain, settings, at } = command.data;
    switch (command.type) {
      case 'CreatePasswordConnection':
        if (state.status !== 'empty') fail(catalogueError('password_connection_already_exists'));
        return [
          {
            type: 'PasswordConnectionCreated',
            data: { id, ...merged(state, settings), organization_id, environment, organization_domain, at },
          },
        ];
      case 'UpdatePasswordConnection': {
        const next = merged(state, settings);
        if (state.status === 'empty')
          return [
            { type: 'PasswordConnectionCreated', data: { id, ...next, organization_id, environment, organization_domain, at } },
          ];
        // A change records the organization that made it (a connection recorded before connections named theirs gets it),
        // and its domain (webhooks name it; the stream names the organization's id).
        return same(next, settingsOf(state))
          ? []
          : [{ type: 'PasswordConnectionUpdated', data: { id, ...next, organization_id, environment, organization_domain, at } }];
      }
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'PasswordConnectionCreated': {
        const { at, id: _id, organization_id, ...connection } = event.data;
        return { status: 'created', ...connection, organization_id: organization_id ?? null, inserted_at: at };
      }
      case 'PasswordConnectionUpdated': {
        const {
          at: _at,
          id: _id,
          organization_id,
          environment: _environment,
          organization_domain: _domain,
          ...settings
        } = event.data;
        if (state.status === 'empty') return state;
        return { ...state, ...settings, organization_id: organization_id ?? state.organization_id };
      }
      case 'PasswordConnectionDeleted':
        return { status: 'empty' };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
