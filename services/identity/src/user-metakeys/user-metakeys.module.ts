import {
  activeUserMetakeysRequestSchema,
  createUserMetakey,
  deleteUserMetakey,
  listUserMetakeys,
  subjects,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { userMetakeyAggregate } from './commands/user-metakey.aggregate';
import { createUserMetakeyHandler, deleteUserMetakeyHandler } from './commands/user-metakey.handlers';
import { userMetakeysView } from './projections/user-metakeys.projection';
import { activeUserMetakeysHandler, listUserMetakeysHandler } from './queries/user-metakey.queries';
import type { UserMetakeysDeps } from './user-metakeys.deps';

/** User metakeys: one aggregate per key and environment, its read model, the HTTP operations and the active-keys subject. */
export function registerUserMetakeys(runtime: ServiceRuntime): UserMetakeysDeps {
  const deps: UserMetakeysDeps = {
    metakeys: runtime.aggregate(userMetakeyAggregate),
    metadata: (context) => runtime.metadata(context),
    view: runtime.projections.register(new AggregateView(userMetakeysView, runtime.readModels, runtime.eventStore)),
    now: () => new Date(),
  };
  runtime.router.operation(createUserMetakey, createUserMetakeyHandler(deps));
  runtime.router.operation(listUserMetakeys, listUserMetakeysHandler(deps));
  runtime.router.operation(deleteUserMetakey, deleteUserMetakeyHandler(deps));
  runtime.router.on(subjects.identity.userMetakeys.active, activeUserMetakeysHandler(deps), activeUserMetakeysRequestSchema);
  return deps;
}
