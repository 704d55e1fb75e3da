import type {
  Environment,
  findOrCreateUserRequestSchema,
  modifyUserRequestSchema,
  provisionUserRequestSchema,
  recordIdentityRequestSchema,
  userIdRequestSchema,
  z,
} from '@sesame/contracts';
import { created, ok } from '@sesame/platform';
import type { DomainError, RequestContext } from '@sesame/platform';
import { resolveTenant } from '../../tenancy/tenant';
import { toUser } from '../domain/user.decider';
import { findUserByEmail } from '../queries/user.queries';
import { userFieldsOf } from '../user-input';
import type { UsersDeps } from '../users.deps';
import * as commands from './user.commands';

// The user commands other services call (SSO, magic link, password, SCIM): the same rules as the
// public API, with the organization and environment named in the request.
const tenantOf = (deps: UsersDeps, input: { organization_domain: string; environment: Environment }) =>
  resolveTenant(deps.organizations, input.organization_domain, input.environment);

export function provisionUserHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof provisionUserRequestSchema>, context: RequestContext) => {
    const fields = { ...userFieldsOf(input), email: input.email };
    const user = await commands.createUser(deps, await tenantOf(deps, input), fields, input.source, deps.metadata(context));
    return created(toUser(user));
  };
}

/** The user of the email, created when there is none (a sign-in with just-in-time provisioning). */
export function findOrCreateUserHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof findOrCreateUserRequestSchema>, context: RequestContext) => {
    const tenant = await tenantOf(deps, input);
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
  };
}

export function modifyUserHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof modifyUserRequestSchema>, context: RequestContext) => {
    const tenant = await tenantOf(deps, input);
    const user = await commands.updateUser(deps, tenant, input.id, userFieldsOf(input), undefined, deps.metadata(context));
    return ok(toUser(user));
  };
}

export function deactivateUserHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof userIdRequestSchema>, context: RequestContext) =>
    ok(toUser(await commands.deactivateUser(deps, await tenantOf(deps, input), input.id, deps.metadata(context))));
}

export function removeUserHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof userIdRequestSchema>, context: RequestContext) => {
    const user = await commands.deleteUser(deps, await tenantOf(deps, input), input.id, 'scim', deps.metadata(context));
    return ok({ deleted: true, resource: toUser(user) });
  };
}

export function recordIdentityHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof recordIdentityRequestSchema>, context: RequestContext) => {
    const { identity, profile, update_profile_only_at_creation } = input;
    const change = { identity, profile, update_profile_only_at_creation };
    const user = await commands.recordIdentity(deps, await tenantOf(deps, input), input.id, change, deps.metadata(context));
    return ok(toUser(user));
  };
}
