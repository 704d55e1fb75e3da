import { catalogueError, userBody, uuidSchema } from '@sesame/contracts';
import type {
  Environment,
  OperationInput,
  PageQuery,
  User,
  UserFilter,
  countUsersRequestSchema,
  getUser,
  listUsers,
  searchUsersRequestSchema,
  userEmailRequestSchema,
  userIdRequestSchema,
  z,
} from '@sesame/contracts';
import { failure, findPage, ok } from '@sesame/platform';
import type { Filter, RequestContext } from '@sesame/platform';
import { environmentOf, resolveTenant } from '../../tenancy/tenant';
import { emailKey, scopeKey, toUser } from '../domain/user.decider';
import type { StoredUser, Tenant } from '../domain/user.decider';
import type { UsersDeps } from '../users.deps';

/** The read-model filter of a user search within one organization and environment. */
export function userFilter(tenant: Tenant, filter: UserFilter): Filter {
  const query: Filter = filter.email
    ? { email_key: emailKey(tenant.organization_id, tenant.environment, filter.email) }
    : { scope: scopeKey(tenant.organization_id, tenant.environment) };
  if (filter.email) query.scope = scopeKey(tenant.organization_id, tenant.environment);
  if (filter.active !== undefined) query.active = filter.active;
  if (filter.ids) query._id = { $in: filter.ids };
  if (filter.given_name !== undefined) query['profile.given_name'] = filter.given_name;
  if (filter.family_name !== undefined) query['profile.family_name'] = filter.family_name;
  for (const [key, value] of Object.entries(filter.metadata ?? {})) query[`metadata.${key}`] = value;
  return query;
}

export async function searchUsers(deps: UsersDeps, tenant: Tenant, filter: UserFilter, query: PageQuery) {
  return findPage(deps.view.documents, { filter: userFilter(tenant, filter), sort: { inserted_at: 1 }, query }, (document) =>
    toUser(document as StoredUser),
  );
}

export async function findUserById(deps: UsersDeps, tenant: Tenant, id: string): Promise<User | null> {
  const document = await deps.view.documents.get(id);
  if (!document || document.status !== 'active' || document.scope !== scopeKey(tenant.organization_id, tenant.environment))
    return null;
  return toUser(document);
}

export async function findUserByEmail(deps: UsersDeps, tenant: Tenant, email: string): Promise<User | null> {
  const [document] = await deps.view.documents.find({ email_key: emailKey(tenant.organization_id, tenant.environment, email) });
  return document && document.status === 'active' ? toUser(document) : null;
}

export function listUsersHandler(deps: UsersDeps) {
  return async ({ params, query }: OperationInput<typeof listUsers>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const { data, ...page } = await searchUsers(deps, tenant, query.email ? { email: query.email } : {}, query);
    return ok({ data: data.map(userBody), ...page });
  };
}

export function getUserHandler(deps: UsersDeps) {
  return async ({ params }: OperationInput<typeof getUser>, context: RequestContext) => {
    const tenant = await resolveTenant(deps.organizations, params.org_domain, environmentOf(context.meta));
    const key = params.id;
    const user = uuidSchema.safeParse(key).success
      ? await findUserById(deps, tenant, key)
      : await findUserByEmail(deps, tenant, key);
    return user ? ok(userBody(user)) : failure(catalogueError('resource_not_found'));
  };
}

type TenantInput = { organization_domain: string; environment: Environment };

const tenantOf = (deps: UsersDeps, input: TenantInput) =>
  resolveTenant(deps.organizations, input.organization_domain, input.environment);

/** `identity.users.find-by-id` (other services): the live user, or null. */
export function findUserByIdHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof userIdRequestSchema>) =>
    ok({ user: await findUserById(deps, await tenantOf(deps, input), input.id) });
}

/** `identity.users.find-by-email` (other services): the live user, or null. */
export function findUserByEmailHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof userEmailRequestSchema>) =>
    ok({ user: await findUserByEmail(deps, await tenantOf(deps, input), input.email) });
}

export function searchUsersHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof searchUsersRequestSchema>) =>
    ok(await searchUsers(deps, await tenantOf(deps, input), input.filter, input));
}

export function countUsersHandler(deps: UsersDeps) {
  return async (input: z.infer<typeof countUsersRequestSchema>) =>
    ok({ count: await deps.view.documents.count(userFilter(await tenantOf(deps, input), input.filter)) });
}
