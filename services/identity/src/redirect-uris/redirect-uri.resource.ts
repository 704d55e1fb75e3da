import type { Environment, RedirectUri, RedirectUriData } from '@sesame/contracts';
import type { RedirectUrisState } from './domain/redirect-uris.decider';

/** The API representation of one redirect URI of an environment. */
export const toRedirectUri = (state: RedirectUrisState, environment: Environment, uri: RedirectUriData): RedirectUri => ({
  __type__: 'RedirectUri',
  __environment__: environment,
  id: uri.id,
  url: uri.url,
  default: state.default_id === uri.id,
});
