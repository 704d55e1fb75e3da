import { randomUUID } from 'node:crypto';
import { refusedField } from '@sesame/contracts';
import type { UserDeletionReason, UserSource } from '@sesame/contracts';
import { Aggregate } from '@sesame/platform';
import type { EventMetadata, HandleOptions, Reservation, UniqueClaim } from '@sesame/platform';
import { metakeyRules } from '../../user-metakeys/metakey-rules';
import { countNewUser, uncountUser } from '../plan-limit/user-seats';
import { emailKey, userDecider } from '../domain/user.decider';
import type { StoredUser, Tenant, UserCommand, UserState } from '../domain/user.decider';
import type { UserFieldsInput } from '../domain/user-fields';
import { userStream } from '../projections/users.projection';
import type { UsersEnv } from '../users.env';

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
const countDeps = (env: UsersEnv) => ({ eventStore: env.eventStore, users: env.view.documents, limits: env.limits });

const usersOf = (env: UsersEnv) => new Aggregate(env.commandDeps, { decider: userDecider, stream: userStream });

async function run(
  env: UsersEnv,
  id: string,
  command: UserCommand,
  metadata: EventMetadata,
  options: HandleOptions<UserState> = {},
) {
  const result = await usersOf(env).handle(id, command, metadata, options);
  return { state: result.state as StoredUser, events: result.events };
}

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
 * the user is counted against the plan's limits (403 `user_limit_reached` when full), then the
 * email is reserved for its organization and environment, then the user is appended. A failed
 * append gives the email and the counted places back.
 */
export async function createUser(
  env: UsersEnv,
  tenant: Tenant,
  fields: UserFieldsInput & { email: string },
  source: UserSource,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const id = randomUUID();
  const metakeys = await metakeyRules(env.metakeys, tenant.environment, Object.keys(fields.metadata ?? {}), true);
  const command: UserCommand = {
    type: 'CreateUser',
    data: { id, tenant, fields, metakeys, source, at: env.now().toISOString() },
  };
  const take = () => [emailClaim(tenant, fields.email, id)];
  userDecider.decide(command, userDecider.initialState());
  const giveBack = await countNewUser(countDeps(env), tenant, id, metadata);
  try {
    return (await run(env, id, command, metadata, { newStream: true, take })).state;
  } catch (error) {
    await giveBack();
    throw error;
  }
}

/**
 * Updates a user: the rules are checked on the user as its stream holds it, then a new email is
 * reserved, then the change is appended and the old email given back.
 */
export async function updateUser(
  env: UsersEnv,
  tenant: Tenant,
  id: string,
  fields: UserFieldsInput,
  requestedId: string | undefined,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const metakeys = await metakeyRules(env.metakeys, tenant.environment, Object.keys(fields.metadata ?? {}), false);
  const command: UserCommand = {
    type: 'UpdateUser',
    data: {
      tenant,
      fields,
      metakeys,
      at: env.now().toISOString(),
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
  return (await run(env, id, command, metadata, options)).state;
}

export async function addUserMetadata(
  env: UsersEnv,
  tenant: Tenant,
  id: string,
  key: string,
  value: unknown,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const metakeys = await metakeyRules(env.metakeys, tenant.environment, [key], false);
  return (
    await run(env, id, { type: 'AddUserMetadata', data: { tenant, key, value, metakeys, at: env.now().toISOString() } }, metadata)
  ).state;
}

export async function removeUserMetadata(
  env: UsersEnv,
  tenant: Tenant,
  id: string,
  key: string,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const metakeys = await metakeyRules(env.metakeys, tenant.environment, [key], false);
  return (
    await run(env, id, { type: 'RemoveUserMetadata', data: { tenant, key, metakeys, at: env.now().toISOString() } }, metadata)
  ).state;
}

export async function deactivateUser(env: UsersEnv, tenant: Tenant, id: string, metadata: EventMetadata): Promise<StoredUser> {
  return (await run(env, id, { type: 'DeactivateUser', data: { tenant, at: env.now().toISOString() } }, metadata)).state;
}

/** Deletes a user and gives its email back to its organization and environment, and its place under the plan's limits. */
export async function deleteUser(
  env: UsersEnv,
  tenant: Tenant,
  id: string,
  reason: UserDeletionReason,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const command: UserCommand = { type: 'DeleteUser', data: { tenant, reason, at: env.now().toISOString() } };
  const release = (before: UserState) => {
    const email = heldEmail(before);
    return email === null ? [] : [emailReservation(tenant, email, id)];
  };
  const { state, events } = await run(env, id, command, metadata, { release });
  if (events.length > 0) await uncountUser(countDeps(env), tenant, id, metadata);
  return state;
}

export async function recordIdentity(
  env: UsersEnv,
  tenant: Tenant,
  id: string,
  data: Omit<Extract<UserCommand, { type: 'RecordIdentity' }>['data'], 'tenant' | 'at'>,
  metadata: EventMetadata,
): Promise<StoredUser> {
  return (await run(env, id, { type: 'RecordIdentity', data: { tenant, ...data, at: env.now().toISOString() } }, metadata)).state;
}

export async function purgeUserMetadataKey(env: UsersEnv, id: string, key: string, metadata: EventMetadata): Promise<boolean> {
  const { events } = await run(env, id, { type: 'PurgeUserMetadataKey', data: { key, at: env.now().toISOString() } }, metadata);
  return events.length > 0;
}
