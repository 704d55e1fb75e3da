import {
  activeUserMetakeysRequestSchema,
  createUserMetakey,
  deleteUserMetakey,
  listUserMetakeys,
  subjects,
} from '@sesame/contracts';
import { AggregateView, ok } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform';
import { userMetakeyAggregate } from './commands/user-metakey.aggregate';
import { toUserMetakey } from './user-metakeys.handlers';
import { userMetakeysView } from './projections/user-metakeys.projection';
import { createUserMetakeyHandler, deleteUserMetakeyHandler, listUserMetakeysHandler } from './user-metakeys.handlers';
import type { StoredUserMetakey, UserMetakeysDeps } from './user-metakeys.deps';

export function registerUserMetakeys(runtime: ServiceRuntime): UserMetakeysDeps {
  const view = runtime.projections.register(new AggregateView(userMetakeysView, runtime.readModels, runtime.eventStore));
  const deps: UserMetakeysDeps = {
    metakeys: runtime.aggregate(userMetakeyAggregate),
    metadata: (context) => runtime.metadata(context),
    view,
    now: () => new Date(),
  };
  runtime.router.operation(createUserMetakey, createUserMetakeyHandler(deps));
  runtime.router.operation(listUserMetakeys, listUserMetakeysHandler(deps));
  runtime.router.operation(deleteUserMetakey, deleteUserMetakeyHandler(deps));
  runtime.router.on(
    subjects.identity.userMetakeys.active,
    async ({ environment }) => {
      const keys = await deps.view.documents.find({ environment, status: 'active' }, { sort: { inserted_at: 1 } });
      return ok({ data: keys.map((key) => toUserMetakey(key as StoredUserMetakey)) });
    },
    activeUserMetakeysRequestSchema,
  );
  return deps;
}
