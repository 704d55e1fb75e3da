import { catalogueError, fieldError } from '@sesame/contracts';
import type { Tenant, MagicLinkConnection, MagicLinkConnectionChanges, MagicLinkConnectionEvent } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';

export const connectionTakenMessage = 'already has a magic link connection';

export interface MagicLinkConnectionState {
  tenant: Tenant | null;
  connection: MagicLinkConnection | null;
  /** When the connection was created (null without one). */
  inserted_at: string | null;
}

export type MagicLinkConnectionCommand =
  | {
      type: 'CreateMagicLinkConnection';
      data: { tenant: Tenant; id: string; fields: MagicLinkConnectionChanges; at: string };
    }
  | { type: 'UpdateMagicLinkConnection'; data: { tenant: Tenant; changes: MagicLinkConnectionChanges; at: string } }
  /** Its organization was deleted (the stream is the organization's); nothing to do without a connection. */
  | { type: 'DeleteMagicLinkConnection'; data: OrganizationDeletion };

/** Explicit fields win; `undefined` keeps what is there. */
const merge = (connection: MagicLinkConnection, changes: MagicLinkConnectionChanges): MagicLinkConnection => ({
  id: connection.id,
  active: changes.active ?? connection.active,
  find_or_create_user: changes.find_or_create_user ?? connection.find_or_create_user,
  sign_in_template_id: changes.sign_in_template_id === undefined ? connection.sign_in_template_id : changes.sign_in_template_id,
});

function create(
  command: Extract<MagicLinkConnectionCommand, { type: 'CreateMagicLinkConnection' }>,
  state: MagicLinkConnectionState,
) {
  const { tenant, id, fields, at } = command.data;
  if (state.connection) fail(fieldError('org_domain', connectionTakenMessage));
  const connection = merge({ id, active: true, find_or_create_user: false, sign_in_template_id: null }, fields);
  return [{ type: 'MagicLinkConnectionCreated', data: { ...tenant, connection, at } }] satisfies MagicLinkConnectionEvent[];
}

function update(
  command: Extract<MagicLinkConnectionCommand, { type: 'UpdateMagicLinkConnection' }>,
  state: MagicLinkConnectionState,
) {
  const { tenant, changes, at } = command.data;
  if (!state.connection) fail(catalogueError('resource_not_found'));
  const connection = merge(state.connection, changes);
  if (JSON.stringify(connection) === JSON.stringify(state.connection)) return [];
  return [{ type: 'MagicLinkConnectionUpdated', data: { ...tenant, connection, at } }] satisfies MagicLinkConnectionEvent[];
}

/** The magic link connection of one organization in one environment: created once, then updated. */
export const magicLinkConnectionDecider: Decider<MagicLinkConnectionState, MagicLinkConnectionCommand, MagicLinkConnectionEvent> =
  {
    initialState: () => ({ tenant: null, connection: null, inserted_at: null }),
    decide(command, state) {
      switch (command.type) {
        case 'CreateMagicLinkConnection':
          return create(command, state);
        case 'UpdateMagicLinkConnection':
          return update(command, state);
        case 'DeleteMagicLinkConnection': {
          const { tenant } = state;
          if (tenant?.organization_id !== command.data.organization_id) return [];
          const { reason, at } = command.data;
          return [{ type: 'MagicLinkConnectionDeleted', data: { ...tenant, reason, at } }];
        }
        default: {
          const unknown: never = command;
          throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
        }
      }
    },
    evolve(state, event) {
      switch (event.type) {
        case 'MagicLinkConnectionDeleted':
          return { tenant: null, connection: null, inserted_at: null };
        case 'MagicLinkConnectionCreated': {
          const { connection, at, ...tenant } = event.data;
          return { tenant, connection, inserted_at: at };
        }
        case 'MagicLinkConnectionUpdated': {
          const { connection, at, ...tenant } = event.data;
          return { tenant, connection, inserted_at: state.inserted_at ?? at };
        }
        default: {
          const unknown: never = event;
          return unknown;
        }
      }
    },
  };
