import {
  countUsersRequestSchema,
  findOrCreateUserRequestSchema,
  modifyUserRequestSchema,
  provisionUserRequestSchema,
  recordIdentityRequestSchema,
  searchUsersRequestSchema,
  subjects,
  userEmailRequestSchema,
  userIdRequestSchema,
} from '@sesame/contracts';
import type { RpcRouter } from '@sesame/platform';
import {
  deactivateUserHandler,
  findOrCreateUserHandler,
  modifyUserHandler,
  provisionUserHandler,
  recordIdentityHandler,
  removeUserHandler,
} from './commands/user-subject.handlers';
import { countUsersHandler, findUserByEmailHandler, findUserByIdHandler, searchUsersHandler } from './queries/user.queries';
import type { UsersDeps } from './users.deps';

/**
 * The user subjects other services call (SSO, magic link, password, SCIM): the same rules as
 * the public API, with the organization and environment named in the request.
 */
export function registerUserSubjects(router: RpcRouter, deps: UsersDeps): void {
  const users = subjects.identity.users;
  router.on(users.findById, findUserByIdHandler(deps), userIdRequestSchema);
  router.on(users.findByEmail, findUserByEmailHandler(deps), userEmailRequestSchema);
  router.on(users.provision, provisionUserHandler(deps), provisionUserRequestSchema);
  router.on(users.findOrCreate, findOrCreateUserHandler(deps), findOrCreateUserRequestSchema);
  router.on(users.modify, modifyUserHandler(deps), modifyUserRequestSchema);
  router.on(users.deactivate, deactivateUserHandler(deps), userIdRequestSchema);
  router.on(users.remove, removeUserHandler(deps), userIdRequestSchema);
  router.on(users.recordIdentity, recordIdentityHandler(deps), recordIdentityRequestSchema);
  router.on(users.search, searchUsersHandler(deps), searchUsersRequestSchema);
  router.on(users.count, countUsersHandler(deps), countUsersRequestSchema);
}
