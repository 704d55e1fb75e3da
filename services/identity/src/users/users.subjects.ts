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
import type { DomainError, RpcRouter } from '@sesame/platform';
import { created, ok } from '@sesame/platform';
import { resolveTenant } from '../tenancy/tenant';
import { toUser } from './domain/user.decider';
import * as commands from './commands/user.commands';
import { findUserByEmail, findUserById, searchUsers, userFilter } from './queries/user.queries';
import { userFieldsOf } from './user-input';
import type { UsersDeps } from './users.deps';

const users = subjects.identity.users;

/**
 * The user subjects other services call (SSO, magic link, password, SCIM): the same rules as
 * the public API, with the organization and environment named in the request.
 */
export function registerUserSubjects(router: RpcRouter, deps: UsersDeps): void {
  const tenantOf = (input: { organization_domain: string; environment: 'sandbox' | 'production' }) =>
    resolveTenant(deps.organizations, input.organization_domain, input.environment);

  router.on(
    users.findById,
    async (input) => ok({ user: await findUserById(deps, await tenantOf(input), input.id) }),
    userIdRequestSchema,
  );
  router.on(
    users.findByEmail,
    async (input) => ok({ user: await findUserByEmail(deps, await tenantOf(input), input.email) }),
    userEmailRequestSchema,
  );
  router.on(
    users.provision,
    async (input, context) => {
      const fields = { ...userFieldsOf(input), email: input.email };
      return created(
        toUser(await commands.createUser(deps, await tenantOf(input), fields, input.source, deps.metadata(context))),
      );
    },
    provisionUserRequestSchema,
  );
  router.on(
    users.findOrCreate,
    async (input, context) => {
      const tenant = await tenantOf(input);
      const existing = await findUserByEmail(deps, tenant, input.email);
      if (existing) return ok({ user: existing, created: false });
      const fields = {
        email: input.email,
        ...(input.email_verified !== undefined ? { email_verified: input.email_verified } : {}),
        ...(input.profile ? { profile: input.profile } : {}),
      };
      try {
        const user = await commands.createUser(deps, tenant, fields, input.source, deps.metadata(context));
        return created({ user: toUser(user), created: true });
      } catch (error) {
        const raced = await findUserByEmail(deps, tenant, input.email);
        // Created at the same moment by another request (its email taken, or the last place under
        // the plan's limit taken by it): answer that user.
        const refusal = (error as DomainError).error;
        const lost = refusal?.kind === 'fields' || (refusal?.kind === 'error' && refusal.code === 'user_limit_reached');
        if (raced && lost) return ok({ user: raced, created: false });
        throw error;
      }
    },
    findOrCreateUserRequestSchema,
  );
  router.on(
    users.modify,
    async (input, context) => {
      const user = await commands.updateUser(
        deps,
        await tenantOf(input),
        input.id,
        userFieldsOf(input),
        undefined,
        deps.metadata(context),
      );
      return ok(toUser(user));
    },
    modifyUserRequestSchema,
  );
  router.on(
    users.deactivate,
    async (input, context) =>
      ok(toUser(await commands.deactivateUser(deps, await tenantOf(input), input.id, deps.metadata(context)))),
    userIdRequestSchema,
  );
  router.on(
    users.remove,
    async (input, context) => {
      const user = await commands.deleteUser(deps, await tenantOf(input), input.id, 'scim', deps.metadata(context));
      return ok({ deleted: true, resource: toUser(user) });
    },
    userIdRequestSchema,
  );
  router.on(
    users.recordIdentity,
    async (input, context) => {
      const { identity, profile, update_profile_only_at_creation } = input;
      const user = await commands.recordIdentity(
        deps,
        await tenantOf(input),
        input.id,
        { identity, profile, update_profile_only_at_creation },
        deps.metadata(context),
      );
      return ok(toUser(user));
    },
    recordIdentityRequestSchema,
  );
  router.on(
    users.search,
    async (input) => ok(await searchUsers(deps, await tenantOf(input), input.filter, input)),
    searchUsersRequestSchema,
  );
  router.on(
    users.count,
    async (input) => ok({ count: await deps.view.documents.count(userFilter(await tenantOf(input), input.filter)) }),
    countUsersRequestSchema,
  );
}
