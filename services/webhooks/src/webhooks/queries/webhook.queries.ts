import { catalogueError } from '@sesame/contracts';
import type { Environment, OperationInput, getWebhook, listWebhooks } from '@sesame/contracts';
import { fail, findPage, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy';
import { toWebhook } from '../webhook.resource';
import type { WebhooksDeps } from '../webhooks.deps';

/** A live webhook of the key's environment, from the read model; 404 otherwise. */
export async function findOwnWebhook(deps: Pick<WebhooksDeps, 'view'>, id: string, environment: Environment) {
  const document = await deps.view.documents.get(id);
  if (!document || document.environment !== environment) fail(catalogueError('resource_not_found'));
  return document;
}

export function listWebhooksHandler(deps: WebhooksDeps) {
  return async ({ query }: OperationInput<typeof listWebhooks>, context: RequestContext) => {
    const { organization_domain } = query;
    const filter = { environment: environmentOf(context.meta), ...(organization_domain ? { organization_domain } : {}) };
    return ok(await findPage(deps.view.documents, { filter, sort: { inserted_at: 1, _id: 1 }, query }, toWebhook));
  };
}

export function getWebhookHandler(deps: WebhooksDeps) {
  return async ({ params }: OperationInput<typeof getWebhook>, context: RequestContext) =>
    ok(toWebhook(await findOwnWebhook(deps, params.id, environmentOf(context.meta))));
}
