import {
  checkRedirectUriRequestSchema,
  createRedirectUri,
  deleteRedirectUri,
  getRedirectUri,
  listRedirectUris,
  setDefaultRedirectUri,
  subjects,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { redirectUrisAggregate } from './commands/redirect-uris.aggregate';
import {
  createRedirectUriHandler,
  deleteRedirectUriHandler,
  setDefaultRedirectUriHandler,
} from './commands/redirect-uri.handlers';
import { redirectUrisView } from './projections/redirect-uris.projection';
import { checkRedirectUriHandler, getRedirectUriHandler, listRedirectUrisHandler } from './queries/redirect-uri.queries';
import type { RedirectUrisDeps } from './redirect-uris.deps';

/** Redirect URIs: one aggregate per environment, its read model, the HTTP operations and the check subject. */
export function registerRedirectUris(runtime: ServiceRuntime): void {
  const deps: RedirectUrisDeps = {
    redirectUris: runtime.aggregate(redirectUrisAggregate),
    view: runtime.projections.register(new AggregateView(redirectUrisView, runtime.readModels, runtime.eventStore)),
    metadata: (context) => runtime.metadata(context),
    production: runtime.config.SESAME_MODE === 'production',
    now: () => new Date(),
  };
  runtime.router.operation(createRedirectUri, createRedirectUriHandler(deps));
  runtime.router.operation(listRedirectUris, listRedirectUrisHandler(deps));
  runtime.router.operation(getRedirectUri, getRedirectUriHandler(deps));
  runtime.router.operation(deleteRedirectUri, deleteRedirectUriHandler(deps));
  runtime.router.operation(setDefaultRedirectUri, setDefaultRedirectUriHandler(deps));
  runtime.router.on(subjects.identity.redirectUris.check, checkRedirectUriHandler(deps), checkRedirectUriRequestSchema);
}
