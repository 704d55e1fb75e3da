import {
  addUserMetadata,
  createUser,
  deleteUser,
  getUser,
  getUserLimit,
  listUsers,
  removeUserMetadata,
  updateUser,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform';
import type { OrganizationsEnv } from '../organizations/organizations.env';
import type { UserMetakeysEnv } from '../user-metakeys/user-metakeys.env';
import {
  addUserMetadataHandler,
  createUserHandler,
  deleteUserHandler,
  removeUserMetadataHandler,
  updateUserHandler,
} from './commands/user.handlers';
import { userAggregate } from './commands/user.aggregate';
import { getUserLimitHandler } from './plan-limit/user-limit.query';
import { usersView } from './projections/users.projection';
import { getUserHandler, listUsersHandler } from './queries/user.queries';
import type { UserLimits } from './plan-limit/user-limits';
import type { UsersEnv } from './users.env';
import { registerUserSubjects } from './users.subjects';

/** Wires the user aggregate into a service runtime: projection, HTTP operations and service subjects. */
export function registerUsers(
  runtime: ServiceRuntime,
  organizations: OrganizationsEnv,
  metakeys: UserMetakeysEnv,
  limits: UserLimits,
): UsersEnv {
  const view = runtime.projections.register(new AggregateView(usersView, runtime.readModels, runtime.eventStore));
  const env: UsersEnv = {
    users: runtime.aggregate(userAggregate),
    eventStore: runtime.eventStore,
    metadata: (context) => runtime.metadata(context),
    view,
    organizations,
    metakeys,
    limits,
    now: () => new Date(),
  };
  runtime.router.operation(createUser, createUserHandler(env));
  runtime.router.operation(listUsers, listUsersHandler(env));
  runtime.router.operation(getUser, getUserHandler(env));
  runtime.router.operation(updateUser, updateUserHandler(env));
  runtime.router.operation(deleteUser, deleteUserHandler(env));
  runtime.router.operation(addUserMetadata, addUserMetadataHandler(env));
  runtime.router.operation(removeUserMetadata, removeUserMetadataHandler(env));
  runtime.router.operation(getUserLimit, getUserLimitHandler(env));
  registerUserSubjects(runtime.router, env);
  return env;
}
