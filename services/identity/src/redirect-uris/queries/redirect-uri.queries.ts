import { catalogueError, paginate, resolvePage } from '@sesame/contracts';
import type {
  Environment,
  OperationInput,
  checkRedirectUriRequestSchema,
  getRedirectUri,
  listRedirectUris,
  z,
} from '@sesame/contracts';
import { failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { redirectUrisDecider } from '../domain/redirect-uris.decider';
import type { RedirectUrisState } from '../domain/redirect-uris.decider';
import { toRedirectUri } from '../redirect-uri.resource';
import type { RedirectUrisDeps } from '../redirect-uris.deps';

const stateOf = async (deps: Pick<RedirectUrisDeps, 'view'>, environment: Environment): Promise<RedirectUrisState> =>
  (await deps.view.documents.get(environment)) ?? redirectUrisDecider.initialState();

export function listRedirectUrisHandler(deps: RedirectUrisDeps) {
  return async ({ query }: OperationInput<typeof listRedirectUris>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const state = await stateOf(deps, environment);
    const page = resolvePage(query);
    const data = state.uris.slice(page.skip, page.skip + page.perPage).map((uri) => toRedirectUri(state, environment, uri));
    return ok(paginate(data, state.uris.length, page));
  };
}

export function getRedirectUriHandler(deps: RedirectUrisDeps) {
  return async ({ params }: OperationInput<typeof getRedirectUri>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const state = await stateOf(deps, environment);
    const uri = state.uris.find((item) => item.id === params.id);
    return uri ? ok(toRedirectUri(state, environment, uri)) : failure(catalogueError('resource_not_found'));
  };
}

/** Whether a URL is registered in an environment, and its default one (the OAuth flows ask). */
export function checkRedirectUriHandler(deps: RedirectUrisDeps) {
  return async (input: z.infer<typeof checkRedirectUriRequestSchema>) => {
    const state = await stateOf(deps, input.environment);
    const fallback = state.uris.find((uri) => uri.id === state.default_id);
    return ok({ registered: state.uris.some((uri) => uri.url === input.url), default_url: fallback?.url ?? null });
  };
}
