import type { RedirectUriEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateType } from '@sesame/platform';
import { redirectUrisDecider } from '../domain/redirect-uris.decider';
import type { RedirectUrisCommand, RedirectUrisState } from '../domain/redirect-uris.decider';
import { redirectUrisStreamCategory } from '../projections/redirect-uris.projection';

/** The redirect URIs of an environment, named by the environment. */
export const redirectUrisAggregate: AggregateType<RedirectUrisState, RedirectUrisCommand, RedirectUriEvent> = {
  decider: redirectUrisDecider,
  stream: (environment) => streamName(redirectUrisStreamCategory, environment),
};
