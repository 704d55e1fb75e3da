import {
  addUserMetadata,
  createUser,
  deleteUser,
  eraseUser,
  getUser,
  getUserLimit,
  listUsers,
  removeUserMetadata,
  updateUser,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { OrganizationsDeps } from '../organizations/organizations.deps';
import type { UserMetakeysDeps } from '../user-metakeys/user-metakeys.deps';
import {
  addUserMetadataHandler,
  createUserHandler,
  deleteUserHandler,
  eraseUserHandler,
  removeUserMetadataHandler,
  updateUserHandler,
} from './commands/user.handlers';
import { userAggregate } from './commands/user.aggregate';
import { getUserLimitHandler } from './plan-limit/user-limit.query';
import { usersView } from './projections/users.projection';
import { getUserHandler, listUsersHandler } from './queries/user.queries';
import type { UserLimits } from './plan-limit/user-limits';
import type { UsersDeps } from './users.deps';
import { registerUserSubjects } from './users.subjects';

/** Wires the user aggregate into a service runtime: projection, HTTP operations and service subjects. */
export function registerUsers(
  runtime: ServiceRuntime,
  organizations: OrganizationsDeps,
  metakeys: UserMetakeysDeps,
  limits: UserLimits,
): UsersDeps {
  const view = runtime.projections.register(new AggregateView(usersView, runtime.readModels, runtime.eventStore));
  const deps: UsersDeps = {
    users: runtime.aggregate(userAggregate),
    eventStore: runtime.eventStore,
    metadata: (context) => runtime.metadata(context),
    view,
    organizations,
    metakeys,
    limits,
    now: () => new Date(),
  };
  runtime.router.operation(createUser, createUserHandler(deps));
  runtime.router.operation(listUsers, listUsersHandler(deps));
  runtime.router.operation(getUser, getUserHandler(deps));
  runtime.router.operation(updateUser, updateUserHandler(deps));
  runtime.router.operation(deleteUser, deleteUserHandler(deps));
  runtime.router.operation(eraseUser, eraseUserHandler(deps));
  runtime.router.operation(addUserMetadata, addUserMetadataHandler(deps));
  runtime.router.operation(removeUserMetadata, removeUserMetadataHandler(deps));
  runtime.router.operation(getUserLimit, getUserLimitHandler(deps));
  registerUserSubjects(runtime.router, deps);
  return deps;
}
