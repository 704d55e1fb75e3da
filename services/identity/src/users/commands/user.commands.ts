import { randomUUID } from 'node:crypto';
import { refusedField } from '@sesame/contracts';
import type { UserDeletionReason, UserSource } from '@sesame/contracts';
import type { CommandResult, EventMetadata, HandleOptions, Reservation, UniqueClaim } from '@sesame/platform';
import { metakeyRules } from '../../user-metakeys/metakey-rules';
import { countNewUser, uncountUser } from '../plan-limit/user-seats';
import { emailKey } from '../domain/user.decider';
import type { StoredUser, Tenant, UserCommand, UserState } from '../domain/user.decider';
import type { UserFieldsInput } from '../domain/user-fields';
import { userStream } from '../projections/users.projection';
import type { UsersDeps } from '../users.deps';

export const emailReservationKind = 'userEmail';

const emailReservation = (
  tenant: Pick<Tenant, 'organization_id' | 'environment'>,
  email: string,
  userId: string,
): Reservation => ({
  kind: emailReservationKind,
  value: emailKey(tenant.organization_id, tenant.environment, email),
  owner: userStream(userId),
});

/** The counters of the plan's user limits, over this store and read model. */
const countDeps = (deps: UsersDeps) => ({ eventStore: deps.eventStore, users: deps.view.documents, limits: deps.limits });

/** A user after a command the decider accepted: it exists (a refused command throws). */
const stored = (result: CommandResult<UserState>) => result.state as StoredUser;

/** The user's email in its organization and environment, refused with 422 on `email` when another user holds it. */
const emailClaim = (tenant: Tenant, email: string, userId: string): UniqueClaim => ({
  reservation: emailReservation(tenant, email, userId),
  taken: refusedField('email', 'taken'),
});

/** The email a live user holds, and whether a user's email is `email` (whatever the case). */
const heldEmail = (state: UserState) => (state.status === 'active' ? state.email : null);
const sameEmail = (tenant: Tenant, state: UserState, email: string) =>
  state.status !== 'empty' && state.email_key === emailKey(tenant.organization_id, tenant.environment, email);

/**
 * Creates a user: the rules are checked first (nothing is reserved for a refused user), then
 * the email is reserved for its organization and environment, then the user is counted against
 * the plan's limits (403 `user_limit_reached` when full), then the user is appended. A failed
 * append gives the email and the counted places back.
 */
export async function createUser(
  deps: UsersDeps,
  tenant: Tenant,
  fields: UserFieldsInput & { email: string },
  source: UserSource,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const id = randomUUID();
  const metakeys = await metakeyRules(deps.metakeys, tenant.environment, Object.keys(fields.metadata ?? {}), true);
  const command: UserCommand = {
    type: 'CreateUser',
    data: { id, tenant, fields, metakeys, source, at: deps.now().toISOString() },
  };
  const options: HandleOptions<UserState> = {
    newStream: true,
    take: () => [emailClaim(tenant, fields.email, id)],
    hold: () => countNewUser(countDeps(deps), tenant, id, metadata),
  };
  return stored(await deps.users.handle(id, command, metadata, options));
}

/**
 * Updates a user: the rules are checked on the user as its stream holds it, then a new email is
 * reserved, then the change is appended and the old email given back.
 */
export async function updateUser(
  deps: UsersDeps,
  tenant: Tenant,
  id: string,
  fields: UserFieldsInput,
  requestedId: string | undefined,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const metakeys = await metakeyRules(deps.metakeys, tenant.environment, Object.keys(fields.metadata ?? {}), false);
  const command: UserCommand = {
    type: 'UpdateUser',
    data: {
      tenant,
      fields,
      metakeys,
      at: deps.now().toISOString(),
      ...(requestedId !== undefined ? { requested_id: requestedId } : {}),
    },
  };
  const { email } = fields;
  const options: HandleOptions<UserState> = {
    take: (user) => (email !== undefined && !sameEmail(tenant, user, email) ? [emailClaim(tenant, email, id)] : []),
    release: (before, after) => {
      const previous = heldEmail(before);
      return previous !== null && !sameEmail(tenant, after, previous) ? [emailReservation(tenant, previous, id)] : [];
    },
  };
  return stored(await deps.users.handle(id, command, metadata, options));
}

export async function addUserMetadata(
  deps: UsersDeps,
  tenant: Tenant,
  id: string,
  key: string,
  value: unknown,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const metakeys = await metakeyRules(deps.metakeys, tenant.environment, [key], false);
  const command: UserCommand = { type: 'AddUserMetadata', data: { tenant, key, value, metakeys, at: deps.now().toISOString() } };
  return stored(await deps.users.handle(id, command, metadata));
}

export async function removeUserMetadata(
  deps: UsersDeps,
  tenant: Tenant,
  id: string,
  key: string,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const metakeys = await metakeyRules(deps.metakeys, tenant.environment, [key], false);
  const command: UserCommand = { type: 'RemoveUserMetadata', data: { tenant, key, metakeys, at: deps.now().toISOString() } };
  return stored(await deps.users.handle(id, command, metadata));
}

export async function deactivateUser(deps: UsersDeps, tenant: Tenant, id: string, metadata: EventMetadata): Promise<StoredUser> {
  return stored(
    await deps.users.handle(id, { type: 'DeactivateUser', data: { tenant, at: deps.now().toISOString() } }, metadata),
  );
}

/** Deletes a user and gives its email back to its organization and environment, and its place under the plan's limits. */
export async function deleteUser(
  deps: UsersDeps,
  tenant: Tenant,
  id: string,
  reason: UserDeletionReason,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const command: UserCommand = { type: 'DeleteUser', data: { tenant, reason, at: deps.now().toISOString() } };
  const release = (before: UserState) => {
    const email = heldEmail(before);
    return email === null ? [] : [emailReservation(tenant, email, id)];
  };
  const result = await deps.users.handle(id, command, metadata, { release });
  if (result.events.length > 0) await uncountUser(countDeps(deps), tenant, id, metadata);
  return stored(result);
}

/**
 * Erases a user (a privacy request): deleted first if live, in the same commit as the erasure,
 * with the email and the place under the plan's limits given back as a deletion does. A user erased
 * already answers its first erasure (nothing appended).
 */
export async function eraseUser(deps: UsersDeps, tenant: Tenant, id: string, metadata: EventMetadata): Promise<StoredUser> {
  const command: UserCommand = {
    type: 'EraseUser',
    data: { tenant, pseudonym: `erased-${randomUUID()}`, at: deps.now().toISOString() },
  };
  const release = (before: UserState) => {
    const email = heldEmail(before);
    return email === null ? [] : [emailReservation(tenant, email, id)];
  };
  const result = await deps.users.handle(id, command, metadata, { release });
  if (result.events.some((event) => event.type === 'UserDeleted')) await uncountUser(countDeps(deps), tenant, id, metadata);
  return stored(result);
}

export async function recordIdentity(
  deps: UsersDeps,
  tenant: Tenant,
  id: string,
  data: Omit<Extract<UserCommand, { type: 'RecordIdentity' }>['data'], 'tenant' | 'at'>,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const command: UserCommand = { type: 'RecordIdentity', data: { tenant, ...data, at: deps.now().toISOString() } };
  return stored(await deps.users.handle(id, command, metadata));
}

export async function purgeUserMetadataKey(deps: UsersDeps, id: string, key: string, metadata: EventMetadata): Promise<boolean> {
  const { events } = await deps.users.handle(
    id,
    { type: 'PurgeUserMetadataKey', data: { key, at: deps.now().toISOString() } },
    metadata,
  );
  return events.length > 0;
}
