import type { RedirectUriEvent } from '@sesame/contracts';
import type { Aggregate, AggregateView, EventMetadata, RequestContext } from '@sesame/platform';
import type { RedirectUrisCommand, RedirectUrisState } from './domain/redirect-uris.decider';

/** What the redirect URI handlers need, passed in explicitly. */
export interface RedirectUrisDeps {
  redirectUris: Aggregate<RedirectUrisState, RedirectUrisCommand, RedirectUriEvent>;
  view: AggregateView<RedirectUrisState, RedirectUriEvent>;
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  /** Production mode: only https URLs, no loopback. */
  production: boolean;
  now(): Date;
}
