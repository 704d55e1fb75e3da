import { catalogueError, fieldError, refusedField } from '@sesame/contracts';
import type { Environment, RedirectUriData, RedirectUriEvent } from '@sesame/contracts';
import { fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import { redirectUrlProblem } from './redirect-url';

/** All redirect URIs of one environment: one aggregate, so "exactly one default" holds by construction. */
export interface RedirectUrisState {
  environment: Environment | null;
  uris: RedirectUriData[];
  default_id: string | null;
}

export type RedirectUrisCommand =
  | { type: 'AddRedirectUri'; data: { environment: Environment; id: string; url: string; production: boolean; at: string } }
  | { type: 'SetDefaultRedirectUri'; data: { environment: Environment; id: string; at: string } }
  | { type: 'RemoveRedirectUri'; data: { environment: Environment; id: string; at: string } };

export const maxRedirectUris = 200;
export const defaultNotRemovableMessage = 'Can not remove a default Redirection';

function add(command: Extract<RedirectUrisCommand, { type: 'AddRedirectUri' }>, state: RedirectUrisState): RedirectUriEvent[] {
  const { environment, id, url, production, at } = command.data;
  const problem = redirectUrlProblem(url, production);
  if (problem) fail(fieldError('url', problem));
  if (state.uris.some((uri) => uri.url === url)) fail(refusedField('url', 'taken'));
  if (state.uris.length >= maxRedirectUris)
    fail(fieldError('url', `cannot be added: an environment has at most ${maxRedirectUris} redirect URIs`));
  return [
    {
      type: 'RedirectUriAdded',
      data: { environment, redirect_uri: { id, url, inserted_at: at }, default: state.uris.length === 0 },
    },
  ];
}

function requireUri(state: RedirectUrisState, id: string): RedirectUriData {
  const uri = state.uris.find((item) => item.id === id);
  if (!uri) fail(catalogueError('resource_not_found'));
  return uri;
}

function setDefault(
  command: Extract<RedirectUrisCommand, { type: 'SetDefaultRedirectUri' }>,
  state: RedirectUrisState,
): RedirectUriEvent[] {
  const { environment, id, at } = command.data;
  requireUri(state, id);
  if (state.default_id === id) return [];
  return [{ type: 'DefaultRedirectUriChanged', data: { environment, id, previous_id: state.default_id, at } }];
}

function remove(
  command: Extract<RedirectUrisCommand, { type: 'RemoveRedirectUri' }>,
  state: RedirectUrisState,
): RedirectUriEvent[] {
  const { environment, id, at } = command.data;
  const uri = requireUri(state, id);
  if (state.default_id === id) fail(fieldError('default', defaultNotRemovableMessage));
  return [{ type: 'RedirectUriRemoved', data: { environment, id, url: uri.url, at } }];
}

export const redirectUrisDecider: Decider<RedirectUrisState, RedirectUrisCommand, RedirectUriEvent> = {
  initialState: () => ({ environment: null, uris: [], default_id: null }),
  decide(command, state) {
    switch (command.type) {
      case 'AddRedirectUri':
        return add(command, state);
      case 'SetDefaultRedirectUri':
        return setDefault(command, state);
      case 'RemoveRedirectUri':
        return remove(command, state);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'RedirectUriAdded':
        return {
          environment: event.data.environment,
          uris: [...state.uris, event.data.redirect_uri],
          default_id: event.data.default ? event.data.redirect_uri.id : state.default_id,
        };
      case 'DefaultRedirectUriChanged':
        return { ...state, default_id: event.data.id };
      case 'RedirectUriRemoved':
        return { ...state, uris: state.uris.filter((uri) => uri.id !== event.data.id) };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
