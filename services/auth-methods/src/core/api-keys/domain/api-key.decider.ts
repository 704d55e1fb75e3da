import { catalogueError, fieldError, refusedField } from '@sesame/contracts';
import type { ApiKeyEvent, Environment } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';

export type ApiKeyState =
  | { status: 'empty' }
  | {
      status: 'active' | 'revoked';
      client_id: string;
      name: string;
      secret_hash: string;
      environment: Environment;
      scopes: string[];
      created_at: string;
      revoked_at: string | null;
    };

export type ApiKeyCommand =
  | {
      type: 'CreateApiKey';
      data: { client_id: string; name: string; secret_hash: string; environment: Environment; scopes: string[]; at: string };
    }
  | { type: 'RevokeApiKey'; data: { at: string } };

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, ApiKeyEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateApiKey':
        if (state.status !== 'empty') fail(refusedField('client_id', 'taken'));
        if (command.data.scopes.length === 0) fail(fieldError('scopes', "can't be blank"));
        return [{ type: 'ApiKeyCreated', data: command.data }];
      case 'RevokeApiKey':
        if (state.status === 'empty') fail(catalogueError('resource_not_found'));
        if (state.status === 'revoked') return [];
        return [{ type: 'ApiKeyRevoked', data: { client_id: state.client_id, at: command.data.at } }];
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'ApiKeyCreated': {
        const { at, ...key } = event.data;
        return { status: 'active', ...key, created_at: at, revoked_at: null };
      }
      case 'ApiKeyRevoked':
        return state.status === 'empty' ? state : { ...state, status: 'revoked', revoked_at: event.data.at };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
