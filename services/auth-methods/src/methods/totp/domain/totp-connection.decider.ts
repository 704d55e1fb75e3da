import { fieldError, maxTotpExpirySeconds, minTotpExpirySeconds, totpExpiryMessage } from '@sesame/contracts';
import type { TotpConnection, TotpConnectionEvent, TotpMethod, Tenant, UpdateTotpConnectionBody } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';

/** Lifetime of a code by method (SPEC.md section 9). */
export const defaultTotpExpiry: Record<TotpMethod, number> = { totp_mobile_app: 30, sms: 600 };

/** What every organization has before anyone changes it: inactive, mobile app, 30 s. */
export const defaultTotpConnection: TotpConnection = { active: false, method: 'totp_mobile_app', expiry_in_seconds: 30 };

export interface TotpConnectionState {
  tenant: Tenant | null;
  connection: TotpConnection;
  /** When the organization first changed it (null while the defaults apply). */
  inserted_at: string | null;
}

export type TotpConnectionCommand =
  | { type: 'UpdateTotpConnection'; data: { tenant: Tenant; changes: UpdateTotpConnectionBody; at: string } }
  /** Its organization was deleted (the stream is the organization's); nothing to do when it was never changed. */
  | { type: 'DeleteTotpConnection'; data: OrganizationDeletion };

function update(
  command: Extract<TotpConnectionCommand, { type: 'UpdateTotpConnection' }>,
  state: TotpConnectionState,
): TotpConnectionEvent[] {
  const { tenant, changes, at } = command.data;
  const current = state.connection;
  const method = changes.method ?? current.method;
  const methodChanged = method !== current.method;
  const expiry = changes.expiry_in_seconds ?? (methodChanged ? defaultTotpExpiry[method] : current.expiry_in_seconds);
  if (!Number.isInteger(expiry) || expiry < minTotpExpirySeconds || expiry > maxTotpExpirySeconds)
    fail(fieldError('expiry_in_seconds', totpExpiryMessage));
  const connection: TotpConnection = { active: changes.active ?? current.active, method, expiry_in_seconds: expiry };
  if (JSON.stringify(connection) === JSON.stringify(current)) return [];
  return [{ type: 'TotpConnectionUpdated', data: { ...tenant, connection, at } }];
}

/** One organization's TOTP connection in one environment. */
export const totpConnectionDecider: Decider<TotpConnectionState, TotpConnectionCommand, TotpConnectionEvent> = {
  initialState: () => ({ tenant: null, connection: defaultTotpConnection, inserted_at: null }),
  tenant: ({ tenant }) => tenant ?? undefined,
  decide(command, state) {
    switch (command.type) {
      case 'UpdateTotpConnection':
        return update(command, state);
      case 'DeleteTotpConnection': {
        const { tenant } = state;
        if (tenant?.organization_id !== command.data.organization_id) return [];
        const { reason, at } = command.data;
        return [{ type: 'TotpConnectionDeleted', data: { ...tenant, reason, at } }];
      }
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${String(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'TotpConnectionUpdated': {
        const { connection, at, ...tenant } = event.data;
        return { tenant, connection, inserted_at: state.inserted_at ?? at };
      }
      case 'TotpConnectionDeleted':
        return { tenant: null, connection: defaultTotpConnection, inserted_at: null };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
