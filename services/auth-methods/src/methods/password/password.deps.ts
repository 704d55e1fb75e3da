import { subjects } from '@sesame/contracts';
import type { Environment, Organization, PasswordConnectionSettings, RpcMeta, TenantRef, User } from '@sesame/contracts';
import { withTenant } from '@sesame/platform';
import type { EventMetadata, KeyRing, Loaded, Mailer, MessageTemplates, RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { AuthorizationCodes } from '../../core/authorization-codes/authorization-codes';
import { requireAuthnConnection } from '../../core/identity/authn-connections';
import type { IdentityClient } from '../../core/identity/identity-client';
import type { Organizations } from '../../core/identity/organizations';
import { settingsOf } from './domain/password-connection.decider';
import type { PasswordConnectionState } from './domain/password-connection.decider';
import { passwordConnectionAggregate, passwordConnectionKey, passwordConnectionLegacyKey } from './password.aggregates';
import type { PasswordLists } from './domain/password-policy';
import type { BreachRange } from './breach-range';
import type { PasswordHasher } from './password-hasher';

/** What `registerPassword` is given. */
export interface PasswordServices {
  identity: IdentityClient;
  organizations: Organizations;
  keyRing: KeyRing;
  mailer: Mailer;
  authorizationCodes: AuthorizationCodes;
  breachRange: BreachRange | null;
}

/** What the password handlers share. */
export interface PasswordDeps {
  /** The aggregates of a type (`password.aggregates.ts`). */
  aggregate: ServiceRuntime['aggregate'];
  metadata(context: Pick<RequestContext, 'meta'>): EventMetadata;
  identity: IdentityClient;
  organizations: Organizations;
  hasher: PasswordHasher;
  lists: PasswordLists;
  /** The optional k-anonymity breach lookup (`SESAME_PASSWORD_BREACH_RANGE_URL`). */
  breachRange: Pick<BreachRange, 'isBreached'> | null;
  mailer: Mailer;
  /** The wording of the reset email, in the organization's language. */
  messages: MessageTemplates;
  authorizationCodes: AuthorizationCodes;
  now(): Date;
}

/**
 * The stream of a password connection, by its key in its environment: its organization's id, or
 * the organization's domain for a connection recorded before connections were keyed by organization.
 */
export const passwordConnectionStream = (environment: Environment, key: string) =>
  passwordConnectionAggregate.stream(`${environment}:${key}`);

/** Whose password (or password code) a write is about: the user and its organization's id. */
export interface PasswordOwner {
  user: User;
  organizationId: string;
}

/**
 * The metadata of a write about an organization's password sign-ins (a user's password, a password
 * code, an email's attempts): the organization's tenant on the envelope, as the other sign-in
 * methods' events carry it from their data.
 */
export const tenantMetadata = (deps: Pick<PasswordDeps, 'metadata'>, context: Pick<RequestContext, 'meta'>, tenant: TenantRef) =>
  withTenant(deps.metadata(context), tenant);

/** `tenantMetadata` for a write about `owner`'s password. */
export const ownerMetadata = (
  deps: Pick<PasswordDeps, 'metadata'>,
  context: Pick<RequestContext, 'meta'>,
  { user, organizationId }: PasswordOwner,
) => tenantMetadata(deps, context, { organization_id: organizationId, environment: user.__environment__ });

export const rpcMeta = (context: RequestContext, environment: Environment): RpcMeta => ({
  correlationId: context.meta.correlationId,
  environment,
});

/** A connection recorded before connections were keyed by organization is this organization's when it names no other. */
const ownedBy = (state: PasswordConnectionState, organizationId: string) =>
  state.status === 'created' && (state.organization_id === null || state.organization_id === organizationId);

/**
 * The password connection of an organization in an environment, and the key of the stream it is
 * on: the organization's own, or, while that one is empty, the one its domain named before
 * connections were keyed by organization, unless another organization (of the same domain, since
 * deleted) set it. Both are read at once.
 */
export async function passwordConnectionOf(
  deps: Pick<PasswordDeps, 'aggregate'>,
  environment: Environment,
  organization: Pick<Organization, 'id' | 'domain'>,
): Promise<{ key: string; loaded: Loaded<PasswordConnectionState> }> {
  const connections = deps.aggregate(passwordConnectionAggregate);
  const key = passwordConnectionKey(environment, organization.id);
  const legacyKey = passwordConnectionLegacyKey(environment, organization.domain);
  const [own, legacy] = await Promise.all([connections.load(key), connections.load(legacyKey)]);
  return own.state.status === 'empty' && ownedBy(legacy.state, organization.id)
    ? { key: legacyKey, loaded: legacy }
    : { key, loaded: own };
}

/** The settings of an organization's password connection (the defaults when it never set one). */
export async function connectionOf(
  deps: Pick<PasswordDeps, 'aggregate'>,
  environment: Environment,
  organization: Pick<Organization, 'id' | 'domain'>,
): Promise<PasswordConnectionSettings> {
  return settingsOf((await passwordConnectionOf(deps, environment, organization)).loaded.state);
}

/**
 * The organization a password operation is for: `org_domain`, or the only one allowing the email's
 * domain (422 otherwise); a sign-in (`method` given) also needs the organization to allow it.
 * Its id keys its password connection; its name, locale and time zone word its emails.
 */
export async function signInOrganization(
  deps: PasswordDeps,
  email: string,
  orgDomain: string | undefined,
  meta: RpcMeta,
  method?: 'password',
): Promise<Organization> {
  const { organization } = await deps.identity.call(
    subjects.identity.organizations.forSignIn,
    { email, ...(orgDomain ? { org_domain: orgDomain } : {}) },
    meta,
  );
  if (method) requireAuthnConnection(organization, method);
  return organization;
}
