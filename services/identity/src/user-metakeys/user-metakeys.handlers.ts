import { fieldError, paginate, resolvePage } from '@sesame/contracts';
import type { OperationInput, UserMetakey, createUserMetakey, deleteUserMetakey, listUserMetakeys } from '@sesame/contracts';
import { created, failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../tenancy/tenant';
import { userMetakeyKey } from './projections/user-metakeys.projection';
import type { StoredUserMetakey, UserMetakeysDeps } from './user-metakeys.deps';

export const toUserMetakey = (state: StoredUserMetakey): UserMetakey => ({
  name: state.name,
  required: state.required,
  type: state.type,
});

export function createUserMetakeyHandler(deps: UserMetakeysDeps) {
  return async ({ body }: OperationInput<typeof createUserMetakey>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const metakey: UserMetakey = { name: body.name, required: body.required ?? false, type: body.type ?? 'string' };
    const result = await deps.metakeys.handle(
      userMetakeyKey(environment, metakey.name),
      { type: 'CreateUserMetakey', data: { environment, metakey, at: deps.now().toISOString() } },
      deps.metadata(context),
    );
    return created(toUserMetakey(result.state as StoredUserMetakey));
  };
}

export function listUserMetakeysHandler(deps: UserMetakeysDeps) {
  return async ({ query }: OperationInput<typeof listUserMetakeys>, context: RequestContext) => {
    const page = resolvePage(query);
    const filter = { environment: environmentOf(context.meta), status: 'active' };
    const [documents, total] = await Promise.all([
      deps.view.documents.find(filter, { sort: { inserted_at: 1 }, skip: page.skip, limit: page.perPage }),
      deps.view.documents.count(filter),
    ]);
    return ok(
      paginate(
        documents.map((document) => toUserMetakey(document as StoredUserMetakey)),
        total,
        page,
      ),
    );
  };
}

/** Locks the key; the clean-up reaction removes its values from every user, then deletes it. */
export function deleteUserMetakeyHandler(deps: UserMetakeysDeps) {
  return async ({ body, query }: OperationInput<typeof deleteUserMetakey>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const name = body?.name ?? query?.name;
    if (!name) return failure(fieldError('name', "can't be blank"));
    const result = await deps.metakeys.handle(
      userMetakeyKey(environment, name),
      { type: 'StartUserMetakeyDeletion', data: { at: deps.now().toISOString() } },
      deps.metadata(context),
    );
    return ok({ deleted: true, resource: toUserMetakey(result.state as StoredUserMetakey) });
  };
}
