import { paginate, resolvePage } from '@sesame/contracts';
import type { Environment, OperationInput, listUserMetakeys } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { toUserMetakey } from '../user-metakey.resource';
import type { StoredUserMetakey, UserMetakeysDeps } from '../user-metakeys.deps';

export function listUserMetakeysHandler(deps: UserMetakeysDeps) {
  return async ({ query }: OperationInput<typeof listUserMetakeys>, context: RequestContext) => {
    const page = resolvePage(query);
    const filter = { environment: environmentOf(context.meta), status: 'active' };
    const [documents, total] = await Promise.all([
      deps.view.documents.find(filter, { sort: { inserted_at: 1 }, skip: page.skip, limit: page.perPage }),
      deps.view.documents.count(filter),
    ]);
    const keys = documents.map((document) => toUserMetakey(document as StoredUserMetakey));
    return ok(paginate(keys, total, page));
  };
}

/** The live keys of an environment (the other services' user forms ask). */
export function activeUserMetakeysHandler(deps: UserMetakeysDeps) {
  return async ({ environment }: { environment: Environment }) => {
    const keys = await deps.view.documents.find({ environment, status: 'active' }, { sort: { inserted_at: 1 } });
    return ok({ data: keys.map((key) => toUserMetakey(key as StoredUserMetakey)) });
  };
}
