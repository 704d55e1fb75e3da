import type { RedirectUriEvent } from '@sesame/contracts';
import type { AggregateViewDefinition } from '@sesame/platform';
import { redirectUrisDecider } from '../domain/redirect-uris.decider';
import type { RedirectUrisState } from '../domain/redirect-uris.decider';

export const redirectUrisStreamCategory = 'redirectUris';

/** `redirect_uris_v1`: one document per environment holding its redirect URIs. */
export const redirectUrisView: AggregateViewDefinition<RedirectUrisState, RedirectUriEvent> = {
  name: 'redirect_uris',
  version: 1,
  category: redirectUrisStreamCategory,
  decider: redirectUrisDecider,
  isVisible: (state) => state.environment !== null,
};
