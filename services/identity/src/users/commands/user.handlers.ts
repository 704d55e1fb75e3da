import { fieldError, userBody } from '@sesame/contracts';
import type { OperationInput, addUserMetadata, createUser, deleteUser, removeUserMetadata, updateUser } from '@sesame/contracts';
import { created, failure, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf, resolveTenant } from '../../tenancy/tenant';
import { toUser } from '../domain/user.decider';
import { userFieldsOf } from '../user-input';
import type { UsersEnv } from '../users.env';
import * as commands from './user.commands';

export function createUserHandler(env: UsersEnv) {
  return async ({ params, body }: OperationInput<typeof createUser>, context: RequestContext) => {
    if (body.id !== undefined) return failure(fieldError('id', 'is assigned by Sesame and cannot be chosen'));
    const tenant = await resolveTenant(env.organizations, params.org_domain, environmentOf(context.meta));
    const fields = { ...userFieldsOf(body), email: body.email };
    return created(userBody(toUser(await commands.createUser(env, tenant, fields, 'api', env.metadata(context)))));
  };
}

export function updateUserHandler(env: UsersEnv) {
  return async ({ params, body }: OperationInput<typeof updateUser>, context: RequestContext) => {
    const tenant = await resolveTenant(env.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.updateUser(env, tenant, params.id, userFieldsOf(body), body.id, env.metadata(context));
    return ok(userBody(toUser(user)));
  };
}

export function deleteUserHandler(env: UsersEnv) {
  return async ({ params }: OperationInput<typeof deleteUser>, context: RequestContext) => {
    const tenant = await resolveTenant(env.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.deleteUser(env, tenant, params.id, 'api', env.metadata(context));
    return ok({ deleted: true, resource: userBody(toUser(user)) });
  };
}

export function addUserMetadataHandler(env: UsersEnv) {
  return async ({ params, body }: OperationInput<typeof addUserMetadata>, context: RequestContext) => {
    const tenant = await resolveTenant(env.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.addUserMetadata(env, tenant, params.id, body.key, body.value, env.metadata(context));
    return ok(userBody(toUser(user)));
  };
}

export function removeUserMetadataHandler(env: UsersEnv) {
  return async ({ params, body }: OperationInput<typeof removeUserMetadata>, context: RequestContext) => {
    const tenant = await resolveTenant(env.organizations, params.org_domain, environmentOf(context.meta));
    const user = await commands.removeUserMetadata(env, tenant, params.id, body.key, env.metadata(context));
    return ok(userBody(toUser(user)));
  };
}
