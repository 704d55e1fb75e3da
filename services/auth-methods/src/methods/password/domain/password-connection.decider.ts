import { catalogueError, fieldError } from '@sesame/contracts';
import type { Environment, PasswordConnectionEvent, PasswordConnectionSettings } from '@sesame/contracts';
import { belongsToDeletedOrganization, fail } from '@sesame/platform';
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
      /** When it was created, for the organization of that domain then. */
      inserted_at: string;
    });

type Scope = {
  /** The connection's id (`passwordConnectionId`), which its events carry for webhooks. */
  id: string;
  environment: Environment;
  organization_domain: string;
  settings: Partial<PasswordConnectionSettings>;
  at: string;
};
export type PasswordConnectionCommand =
  | { type: 'CreatePasswordConnection'; data: Scope }
  | { type: 'UpdatePasswordConnection'; data: Scope }
  /** Its organization was deleted; nothing to do when it was never created or belongs to an organization created since. */
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
  decide(command, state) {
    if (command.type === 'DeletePasswordConnection') {
      if (state.status === 'empty' || !belongsToDeletedOrganization(state.inserted_at, command.data)) return [];
      const { environment, organization_domain } = state;
      const { reason, at } = command.data;
      return [{ type: 'PasswordConnectionDeleted', data: { environment, organization_domain, reason, at } }];
    }
    const { id, environment, organization_domain, settings, at } = command.data;
    switch (command.type) {
      case 'CreatePasswordConnection':
        if (state.status !== 'empty') fail(catalogueError('password_connection_already_exists'));
        return [
          { type: 'PasswordConnectionCreated', data: { id, ...merged(state, settings), environment, organization_domain, at } },
        ];
      case 'UpdatePasswordConnection': {
        const next = merged(state, settings);
        if (state.status === 'empty')
          return [{ type: 'PasswordConnectionCreated', data: { id, ...next, environment, organization_domain, at } }];
        return same(next, settingsOf(state)) ? [] : [{ type: 'PasswordConnectionUpdated', data: { id, ...next, at } }];
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
        const { at, id: _id, ...connection } = event.data;
        return { status: 'created', ...connection, inserted_at: at };
      }
      case 'PasswordConnectionUpdated': {
        const { at: _at, id: _id, ...settings } = event.data;
        return state.status === 'empty' ? state : { ...state, ...settings };
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
