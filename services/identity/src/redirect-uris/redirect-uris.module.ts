import { randomUUID } from 'node:crypto';
import {
  catalogueError,
  checkRedirectUriRequestSchema,
  createRedirectUri,
  deleteRedirectUri,
  getRedirectUri,
  listRedirectUris,
  paginate,
  resolvePage,
  setDefaultRedirectUri,
  subjects,
} from '@sesame/contracts';
import type { Environment, RedirectUri, RedirectUriData, RedirectUriEvent } from '@sesame/contracts';
import { AggregateView, created, failure, handleCommand, ok } from '@sesame/platform';
import type { EventMetadata, RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { environmentOf } from '../tenancy/tenant';
import { redirectUrisDecider } from './domain/redirect-uris.decider';
import type { RedirectUrisCommand, RedirectUrisState } from './domain/redirect-uris.decider';
import { redirectUrisStream, redirectUrisView } from './projections/redirect-uris.projection';

const toRedirectUri = (state: RedirectUrisState, environment: Environment, uri: RedirectUriData): RedirectUri => ({
  __type__: 'RedirectUri',
  __environment__: environment,
  id: uri.id,
  url: uri.url,
  default: state.default_id === uri.id,
});

/** Redirect URIs: one aggregate per environment, its read model, the HTTP operations and the check subject. */
export function registerRedirectUris(runtime: ServiceRuntime): void {
  const view = runtime.projections.register(new AggregateView(redirectUrisView, runtime.readModels, runtime.eventStore));
  const production = runtime.config.SESAME_MODE === 'production';
  const run = (environment: Environment, command: RedirectUrisCommand, metadata: EventMetadata) =>
    handleCommand(
      runtime.commandDeps<RedirectUrisState>(),
      redirectUrisDecider,
      redirectUrisStream(environment),
      command,
      metadata,
    );
  const stateOf = async (environment: Environment): Promise<RedirectUrisState> =>
    (await view.documents.get(environment)) ?? redirectUrisDecider.initialState();
  const at = () => new Date().toISOString();
  const meta = (context: RequestContext) => runtime.metadata(context);

  runtime.router.operation(createRedirectUri, async ({ body }, context) => {
    const environment = environmentOf(context.meta);
    const id = randomUUID();
    const { state } = await run(
      environment,
      { type: 'AddRedirectUri', data: { environment, id, url: body.url, production, at: at() } },
      meta(context),
    );
    return created(toRedirectUri(state, environment, state.uris.find((uri) => uri.id === id) as RedirectUriData));
  });
  runtime.router.operation(listRedirectUris, async ({ query }, context) => {
    const environment = environmentOf(context.meta);
    const state = await stateOf(environment);
    const page = resolvePage(query);
    const data = state.uris.slice(page.skip, page.skip + page.perPage).map((uri) => toRedirectUri(state, environment, uri));
    return ok(paginate(data, state.uris.length, page));
  });
  runtime.router.operation(getRedirectUri, async ({ params }, context) => {
    const environment = environmentOf(context.meta);
    const state = await stateOf(environment);
    const uri = state.uris.find((item) => item.id === params.id);
    return uri ? ok(toRedirectUri(state, environment, uri)) : failure(catalogueError('resource_not_found'));
  });
  runtime.router.operation(deleteRedirectUri, async ({ params }, context) => {
    const environment = environmentOf(context.meta);
    const { state, events } = await run(
      environment,
      { type: 'RemoveRedirectUri', data: { environment, id: params.id, at: at() } },
      meta(context),
    );
    const removed = (events[0] as unknown as Extract<RedirectUriEvent, { type: 'RedirectUriRemoved' }>).data;
    return ok({
      deleted: true,
      resource: toRedirectUri(state, environment, { id: removed.id, url: removed.url, inserted_at: removed.at }),
    });
  });
  runtime.router.operation(setDefaultRedirectUri, async ({ params }, context) => {
    const environment = environmentOf(context.meta);
    const { state } = await run(
      environment,
      { type: 'SetDefaultRedirectUri', data: { environment, id: params.id, at: at() } },
      meta(context),
    );
    return ok(toRedirectUri(state, environment, state.uris.find((uri) => uri.id === params.id) as RedirectUriData));
  });
  runtime.router.on(
    subjects.identity.redirectUris.check,
    async (input) => {
      const state = await stateOf(input.environment);
      const fallback = state.uris.find((uri) => uri.id === state.default_id);
      return ok({ registered: state.uris.some((uri) => uri.url === input.url), default_url: fallback?.url ?? null });
    },
    checkRedirectUriRequestSchema,
  );
}
