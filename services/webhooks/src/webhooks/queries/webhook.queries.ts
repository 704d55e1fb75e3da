import { catalogueError, paginate, resolvePage } from '@sesame/contracts';
import type { Environment, OperationInput, getWebhook, listWebhooks } from '@sesame/contracts';
import { fail, ok } from '@sesame/platform';
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
    const page = resolvePage(query);
    const [documents, total] = await Promise.all([
      deps.view.documents.find(filter, { sort: { inserted_at: 1, _id: 1 }, skip: page.skip, limit: page.perPage }),
      deps.view.documents.count(filter),
    ]);
    return ok(
      paginate(
        documents.map((document) => toWebhook(document)),
        total,
        page,
      ),
    );
  };
}

export function getWebhookHandler(deps: WebhooksDeps) {
  return async ({ params }: OperationInput<typeof getWebhook>, context: RequestContext) =>
    ok(toWebhook(await findOwnWebhook(deps, params.id, environmentOf(context.meta))));
}
