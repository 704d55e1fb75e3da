import { fieldError } from '@sesame/contracts';
import type { OperationInput, UserMetakey, createUserMetakey, deleteUserMetakey } from '@sesame/contracts';
import { created, failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { userMetakeyKey } from '../projections/user-metakeys.projection';
import { toUserMetakey } from '../user-metakey.resource';
import type { StoredUserMetakey, UserMetakeysDeps } from '../user-metakeys.deps';

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
