import { fieldError, userBody } from '@sesame/contracts';
import type {
  OperationInput,
  addUserMetadata,
  createUser,
  deleteUser,
  eraseUser,
  removeUserMetadata,
  updateUser,
} from '@sesame/contracts';
import { created, failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf, resolveTenant } from '../../tenancy/tenant';
import { toUser } from '../domain/user.decider';
import { userFieldsOf } from '../user-input';
import type { UsersDeps } from '../users.deps';
import * as commands from './user.commands';

export function createUserHandler(deps: UsersDeps) {
  return async ({ params, body }: OperationInput<typeof createUser>, context: RequestContext) => {
    if (body.id !== undefined) return failure(fieldError('id', 'is assigned by Sesame and cannot be chosen'));
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const fields = { ...userFieldsOf(body), email: body.email };
    return created(userBody(toUser(await commands.createUser(deps, tenant, fields, 'api', deps.metadata(context)))));
  };
}

export function updateUserHandler(deps: UsersDeps) {
  return async ({ params, body }: OperationInput<typeof updateUser>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.updateUser(deps, tenant, params.id, userFieldsOf(body), body.id, deps.metadata(context));
    return ok(userBody(toUser(user)));
  };
}

export function deleteUserHandler(deps: UsersDeps) {
  return async ({ params }: OperationInput<typeof deleteUser>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.deleteUser(deps, tenant, params.id, 'api', deps.metadata(context));
    return ok({ deleted: true, resource: userBody(toUser(user)) });
  };
}

export function eraseUserHandler(deps: UsersDeps) {
  return async ({ params }: OperationInput<typeof eraseUser>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.eraseUser(deps, tenant, params.id, deps.metadata(context));
    // The command answers an erased user (its decider refuses any other).
    const erasure = user.erased as NonNullable<typeof user.erased>;
    return ok({ user_id: user.id, pseudonym: erasure.pseudonym, erased_at: erasure.at });
  };
}

export function addUserMetadataHandler(deps: UsersDeps) {
  return async ({ params, body }: OperationInput<typeof addUserMetadata>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.addUserMetadata(deps, tenant, params.id, body.key, body.value, deps.metadata(context));
    return ok(userBody(toUser(user)));
  };
}

export function removeUserMetadataHandler(deps: UsersDeps) {
  return async ({ params, body }: OperationInput<typeof removeUserMetadata>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.removeUserMetadata(deps, tenant, params.id, body.key, deps.metadata(context));
    return ok(userBody(toUser(user)));
  };
}
