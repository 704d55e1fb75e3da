import type { Environment, OperationInput, listUserMetakeys } from '@sesame/contracts';
import { findPage, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { toUserMetakey } from '../user-metakey.resource';
import type { StoredUserMetakey, UserMetakeysDeps } from '../user-metakeys.deps';

export function listUserMetakeysHandler(deps: UserMetakeysDeps) {
  return async ({ query }: OperationInput<typeof listUserMetakeys>, context: RequestContext) => {
    const filter = { environment: environmentOf(context.meta), status: 'active' };
    return ok(
      await findPage(deps.view.documents, { filter, sort: { inserted_at: 1 }, query }, (document) =>
        toUserMetakey(document as StoredUserMetakey),
      ),
    );
  };
}

/** The live keys of an environment (the other services' user forms ask). */
export function activeUserMetakeysHandler(deps: UserMetakeysDeps) {
  return async ({ environment }: { environment: Environment }) => {
    const keys = await deps.view.documents.find({ environment, status: 'active' }, { sort: { inserted_at: 1 } });
    return ok({ data: keys.map((key) => toUserMetakey(key as StoredUserMetakey)) });
  };
}
