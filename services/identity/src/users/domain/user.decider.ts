import { catalogueError, fieldError, refusedField } from '@sesame/contracts';
import type {
  Environment,
  Identity,
  ProfileInput,
  ProfileOwners,
  Tenant as OrganizationTenant,
  User,
  UserChangeData,
  UserDeletionReason,
  UserEvent,
  UserSource,
} from '@sesame/contracts';
import { erasureEmailHash, fail } from '@sesame/platform';
import type { Decider } from '@sesame/platform';
import {
  checkEmailDomain,
  checkMetadata,
  emptyAddress,
  emptyProfile,
  mergeDefined,
  metakeyLockedMessage,
  phoneNumbersAfter,
} from './user-fields';
import type { MetakeyRules, UserFieldsInput } from './user-fields';

export interface UserRecord extends User {
  organization_id: string;
  profile_owners: ProfileOwners;
  /** `<organization id>:<environment>`: the users one API key of one organization sees. */
  scope: string;
  /** `<scope>:<lowercase email>`: lookup by email. */
  email_key: string;
  /** Set once the user's personal data was erased from the events feed (a privacy request). */
  erased?: { pseudonym: string; at: string };
}

export type UserState = { status: 'empty' } | ({ status: 'active' | 'deleted' } & UserRecord);
export type StoredUser = Exclude<UserState, { status: 'empty' }>;

/** The organization a command acts in, as the handler found it (live, same environment), with the email domains it allows. */
export type Tenant = OrganizationTenant & { allowed_email_domains: string[] };

export type UserCommand =
  | {
      type: 'CreateUser';
      data: {
        id: string;
        tenant: Tenant;
        fields: UserFieldsInput & { email: string };
        metakeys: MetakeyRules;
        source: UserSource;
        at: string;
      };
    }
  | {
      type: 'UpdateUser';
      data: { tenant: Tenant; fields: UserFieldsInput; requested_id?: string; metakeys: MetakeyRules; at: string };
    }
  | { type: 'AddUserMetadata'; data: { tenant: Tenant; key: string; value: unknown; metakeys: MetakeyRules; at: string } }
  | { type: 'RemoveUserMetadata'; data: { tenant: Tenant; key: string; metakeys: MetakeyRules; at: string } }
  | { type: 'DeactivateUser'; data: { tenant: Tenant; at: string } }
  | {
      type: 'RecordIdentity';
      data: { tenant: Tenant; identity: Identity; profile: ProfileInput; update_profile_only_at_creation: boolean; at: string };
    }
  | { type: 'DeleteUser'; data: { tenant: Tenant; reason: UserDeletionReason; at: string } }
  /** A privacy request: deletes the user if live and records the erasure, once (`pseudonym` is fresh). */
  | { type: 'EraseUser'; data: { tenant: Tenant; pseudonym: string; at: string } }
  /** Removes the values of a user metakey being deleted (bypasses its lock). */
  | { type: 'PurgeUserMetadataKey'; data: { key: string; at: string } };

export const scopeKey = (organizationId: string, environment: Environment) => `${organizationId}:${environment}`;
export const emailKey = (organizationId: string, environment: Environment, email: string) =>
  `${scopeKey(organizationId, environment)}:${email.trim().toLowerCase()}`;

export function toUser(state: UserRecord): User {
  const {
    organization_id: _organization,
    profile_owners: _owners,
    scope: _scope,
    email_key: _emailKey,
    erased: _erased,
    status: _status,
    _id,
    _rev,
    ...user
  } = state as UserRecord & {
    status?: unknown;
    _id?: unknown;
    _rev?: unknown;
  };
  return user;
}

function requireUser(state: UserState, tenant: Tenant): StoredUser {
  if (
    state.status !== 'active' ||
    state.organization_id !== tenant.organization_id ||
    state.__environment__ !== tenant.environment
  )
    fail(catalogueError('resource_not_found'));
  return state;
}

const tenantData = (tenant: Tenant, at: string) => ({
  organization_domain: tenant.organization_domain,
  organization_id: tenant.organization_id,
  environment: tenant.environment,
  at,
});

/** The user after applying `fields` (left-out fields unchanged), with every rule checked. */
function applyFields(current: User, fields: UserFieldsInput, metakeys: MetakeyRules, tenant: Tenant, creating: boolean): User {
  if (fields.email !== undefined && (creating || fields.email.toLowerCase() !== current.email.toLowerCase()))
    checkEmailDomain(fields.email, tenant.allowed_email_domains);
  const metadata =
    fields.metadata === undefined
      ? current.metadata
      : checkMetadata(fields.metadata, metakeys, { requireAll: creating, touched: Object.keys(fields.metadata) });
  if (!creating && fields.metadata !== undefined)
    for (const [key, rule] of Object.entries(metakeys))
      if (rule.required && key in current.metadata && !(key in metadata)) fail(fieldError(`metadata.${key}`, "can't be blank"));
  if (creating && fields.metadata === undefined) checkMetadata({}, metakeys, { requireAll: true, touched: [] });
  return {
    ...current,
    ...(fields.email !== undefined ? { email: fields.email } : {}),
    ...(fields.email_verified !== undefined ? { email_verified: fields.email_verified } : {}),
    ...(fields.active !== undefined ? { active: fields.active } : {}),
    ...(fields.phone_number !== undefined ? { phone_number: fields.phone_number } : {}),
    ...(fields.phone_number_verified !== undefined ? { phone_number_verified: fields.phone_number_verified } : {}),
    phone_numbers: phoneNumbersAfter(current, fields),
    address: mergeDefined(current.address, fields.address),
    profile: mergeDefined(current.profile, fields.profile),
    metadata,
  };
}

const trackedFields = [
  'email',
  'email_verified',
  'active',
  'phone_number',
  'phone_number_verified',
  'phone_numbers',
  'address',
  'profile',
  'metadata',
  'identities',
] as const satisfies readonly (keyof User)[];

/** New and previous values of the fields that differ; empty when nothing changed. */
export function diffUsers(before: User, after: User): Pick<UserChangeData, 'changes' | 'previous_values'> {
  const changes: Record<string, unknown> = {};
  const previous_values: Record<string, unknown> = {};
  for (const field of trackedFields)
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes[field] = after[field];
      previous_values[field] = before[field];
    }
  return { changes, previous_values };
}

function checkProfileOwnership(state: StoredUser, profile: ProfileInput | undefined): void {
  const errors: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(profile ?? {})) {
    const owner = state.profile_owners[field];
    if (owner && value !== undefined && value !== state.profile[field as keyof User['profile']])
      errors[`profile.${field}`] = [
        `is managed by the identity provider ${owner}, which refreshes it at each sign-in: change it there (or set its connection to update profiles only at creation)`,
      ];
  }
  if (Object.keys(errors).length > 0) fail({ kind: 'fields', fields: errors });
}

function create(command: Extract<UserCommand, { type: 'CreateUser' }>, state: UserState): UserEvent[] {
  if (state.status !== 'empty') fail(refusedField('id', 'taken'));
  const { id, tenant, fields, metakeys, source, at } = command.data;
  const blank: User = {
    __type__: 'User',
    __domain__: tenant.organization_domain,
    __environment__: tenant.environment,
    id,
    active: true,
    email: fields.email,
    email_verified: false,
    phone_number: null,
    phone_number_verified: false,
    phone_numbers: [],
    address: emptyAddress(),
    profile: emptyProfile(),
    identities: [],
    metadata: {},
    inserted_at: at,
    updated_at: at,
  };
  const user = applyFields(blank, fields, metakeys, tenant, true);
  return [{ type: 'UserCreated', data: { ...tenantData(tenant, at), user, source, profile_owners: {} } }];
}

function changed(
  type: 'UserUpdated' | 'UserDeactivated',
  state: StoredUser,
  after: User,
  tenant: Tenant,
  at: string,
): UserEvent[] {
  const diff = diffUsers(toUser(state), after);
  if (Object.keys(diff.changes).length === 0) return [];
  return [{ type, data: { ...tenantData(tenant, at), user: { ...after, updated_at: at }, ...diff } }];
}

function update(command: Extract<UserCommand, { type: 'UpdateUser' }>, state: UserState): UserEvent[] {
  const { tenant, fields, requested_id, metakeys, at } = command.data;
  const user = requireUser(state, tenant);
  if (requested_id !== undefined && requested_id !== user.id) fail(fieldError('id', "can't be changed"));
  checkProfileOwnership(user, fields.profile);
  return changed('UserUpdated', user, applyFields(toUser(user), fields, metakeys, tenant, false), tenant, at);
}

function addMetadata(command: Extract<UserCommand, { type: 'AddUserMetadata' }>, state: UserState): UserEvent[] {
  const { tenant, key, value, metakeys, at } = command.data;
  const user = requireUser(state, tenant);
  const checked = checkMetadata({ [key]: value }, metakeys, { requireAll: false, touched: [key] });
  const after = { ...toUser(user), metadata: { ...user.metadata, ...checked } };
  return changed('UserUpdated', user, after, tenant, at);
}

function removeMetadata(command: Extract<UserCommand, { type: 'RemoveUserMetadata' }>, state: UserState): UserEvent[] {
  const { tenant, key, metakeys, at } = command.data;
  const user = requireUser(state, tenant);
  const rule = metakeys[key];
  if (rule?.locked) fail(fieldError('key', metakeyLockedMessage));
  if (rule?.required && key in user.metadata) fail(fieldError('key', 'is a required user metakey and cannot be removed'));
  if (!(key in user.metadata)) return [];
  const { [key]: _removed, ...metadata } = user.metadata;
  return changed('UserUpdated', user, { ...toUser(user), metadata }, tenant, at);
}

function deactivate(command: Extract<UserCommand, { type: 'DeactivateUser' }>, state: UserState): UserEvent[] {
  const user = requireUser(state, command.data.tenant);
  return changed('UserDeactivated', user, { ...toUser(user), active: false }, command.data.tenant, command.data.at);
}

function recordIdentity(command: Extract<UserCommand, { type: 'RecordIdentity' }>, state: UserState): UserEvent[] {
  const { tenant, identity, profile, update_profile_only_at_creation, at } = command.data;
  const user = requireUser(state, tenant);
  const known = user.identities.some((item) => item.provider === identity.provider && item.idp_id === identity.idp_id);
  const identities = known
    ? user.identities.map((item) => (item.provider === identity.provider && item.idp_id === identity.idp_id ? identity : item))
    : [...user.identities, identity];
  const owners: ProfileOwners = {};
  for (const [field, owner] of Object.entries(user.profile_owners)) if (owner !== identity.provider) owners[field] = owner;
  let nextProfile = user.profile;
  if (update_profile_only_at_creation) {
    // Written once, at the first sign-in with this provider, into empty attributes only; editable afterwards.
    if (!known)
      nextProfile = mergeDefined(
        user.profile,
        Object.fromEntries(Object.entries(profile).filter(([field]) => user.profile[field as keyof User['profile']] === null)),
      );
  } else {
    nextProfile = mergeDefined(user.profile, profile);
    for (const [field, value] of Object.entries(profile)) if (value !== undefined) owners[field] = identity.provider;
  }
  const after: User = { ...toUser(user), identities, profile: nextProfile, updated_at: at };
  const diff = diffUsers(toUser(user), after);
  return [
    {
      type: 'UserIdentityRecorded',
      data: { ...tenantData(tenant, at), user: after, ...diff, identity, profile_owners: owners },
    },
  ];
}

/** The tenant a stored user lives in, for the commands the service issues itself (cascades, clean-ups). */
export function tenantOf(user: StoredUser): Tenant {
  return {
    organization_id: user.organization_id,
    organization_domain: user.__domain__,
    allowed_email_domains: [],
    environment: user.__environment__,
  };
}

function purgeMetadataKey(command: Extract<UserCommand, { type: 'PurgeUserMetadataKey' }>, state: UserState): UserEvent[] {
  if (state.status !== 'active' || !(command.data.key in state.metadata)) return [];
  const { [command.data.key]: _removed, ...metadata } = state.metadata;
  return changed('UserUpdated', state, { ...toUser(state), metadata }, tenantOf(state), command.data.at);
}

function remove(command: Extract<UserCommand, { type: 'DeleteUser' }>, state: UserState): UserEvent[] {
  const { tenant, reason, at } = command.data;
  const user = requireUser(state, tenant);
  return [{ type: 'UserDeleted', data: { ...tenantData(tenant, at), user: toUser(user), reason } }];
}

/**
 * Erases a user of the tenant, live or deleted: a live one is deleted in the same commit (its
 * `user.deleted` as a deletion by the API). A user erased already gets no second erasure.
 */
function erase(command: Extract<UserCommand, { type: 'EraseUser' }>, state: UserState): UserEvent[] {
  const { tenant, pseudonym, at } = command.data;
  if (
    state.status === 'empty' ||
    state.organization_id !== tenant.organization_id ||
    state.__environment__ !== tenant.environment
  )
    fail(catalogueError('resource_not_found'));
  if (state.erased) return [];
  const erasure: UserEvent = {
    type: 'UserErased',
    data: { ...tenantData(tenant, at), user_id: state.id, pseudonym, email_hashes: [erasureEmailHash(state.id, state.email)] },
  };
  if (state.status === 'deleted') return [erasure];
  return [{ type: 'UserDeleted', data: { ...tenantData(tenant, at), user: toUser(state), reason: 'api' } }, erasure];
}

function record(user: User, organizationId: string, profileOwners: ProfileOwners): UserRecord {
  return {
    ...user,
    organization_id: organizationId,
    profile_owners: profileOwners,
    scope: scopeKey(organizationId, user.__environment__),
    email_key: emailKey(organizationId, user.__environment__, user.email),
  };
}

export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  initialState: () => ({ status: 'empty' }),
  decide(command, state) {
    switch (command.type) {
      case 'CreateUser':
        return create(command, state);
      case 'UpdateUser':
        return update(command, state);
      case 'AddUserMetadata':
        return addMetadata(command, state);
      case 'RemoveUserMetadata':
        return removeMetadata(command, state);
      case 'DeactivateUser':
        return deactivate(command, state);
      case 'RecordIdentity':
        return recordIdentity(command, state);
      case 'DeleteUser':
        return remove(command, state);
      case 'PurgeUserMetadataKey':
        return purgeMetadataKey(command, state);
      case 'EraseUser':
        return erase(command, state);
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'UserCreated':
        return { status: 'active', ...record(event.data.user, event.data.organization_id, event.data.profile_owners) };
      case 'UserUpdated':
      case 'UserDeactivated':
        if (state.status === 'empty') return state;
        return { status: state.status, ...record(event.data.user, state.organization_id, state.profile_owners) };
      case 'UserIdentityRecorded':
        if (state.status === 'empty') return state;
        return { status: state.status, ...record(event.data.user, state.organization_id, event.data.profile_owners) };
      case 'UserDeleted':
        if (state.status === 'empty') return state;
        return { ...state, status: 'deleted', updated_at: event.data.at };
      case 'UserErased':
        if (state.status === 'empty') return state;
        return { ...state, status: 'deleted', erased: { pseudonym: event.data.pseudonym, at: event.data.at } };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
