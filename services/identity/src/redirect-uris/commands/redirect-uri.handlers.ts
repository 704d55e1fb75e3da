import { randomUUID } from 'node:crypto';
import type {
  OperationInput,
  RedirectUriData,
  createRedirectUri,
  deleteRedirectUri,
  setDefaultRedirectUri,
} from '@sesame/contracts';
import { created, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { toRedirectUri } from '../redirect-uri.resource';
import type { RedirectUrisDeps } from '../redirect-uris.deps';

export function createRedirectUriHandler(deps: RedirectUrisDeps) {
  return async ({ body }: OperationInput<typeof createRedirectUri>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const id = randomUUID();
    const at = deps.now().toISOString();
    const { state } = await deps.redirectUris.handle(
      environment,
      { type: 'AddRedirectUri', data: { environment, id, url: body.url, production: deps.production, at } },
      deps.metadata(context),
    );
    return created(toRedirectUri(state, environment, state.uris.find((uri) => uri.id === id) as RedirectUriData));
  };
}

export function deleteRedirectUriHandler(deps: RedirectUrisDeps) {
  return async ({ params }: OperationInput<typeof deleteRedirectUri>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const { state, events } = await deps.redirectUris.handle(
      environment,
      { type: 'RemoveRedirectUri', data: { environment, id: params.id, at: deps.now().toISOString() } },
      deps.metadata(context),
    );
    const [removed] = events;
    if (removed?.type !== 'RedirectUriRemoved') throw new Error('a removal left the redirect URI in place');
    const { id, url, at } = removed.data;
    return ok({ deleted: true, resource: toRedirectUri(state, environment, { id, url, inserted_at: at }) });
  };
}

export function setDefaultRedirectUriHandler(deps: RedirectUrisDeps) {
  return async ({ params }: OperationInput<typeof setDefaultRedirectUri>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const { state } = await deps.redirectUris.handle(
      environment,
      { type: 'SetDefaultRedirectUri', data: { environment, id: params.id, at: deps.now().toISOString() } },
      deps.metadata(context),
    );
    return ok(toRedirectUri(state, environment, state.uris.find((uri) => uri.id === params.id) as RedirectUriData));
  };
}
