import { randomUUID } from 'node:crypto';
import { fieldError } from '@sesame/contracts';
import type { UserDeletionReason, UserSource } from '@sesame/contracts';
import { fail, handleCommand, releaseUnique, reserveUnique } from '@sesame/platform';
import type { EventMetadata, Reservation } from '@sesame/platform';
import { metakeyRules } from '../../user-metakeys/metakey-rules';
import { emailKey, userDecider } from '../domain/user.decider';
import type { StoredUser, Tenant, UserCommand } from '../domain/user.decider';
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

async function run(env: UsersEnv, id: string, command: UserCommand, metadata: EventMetadata) {
  const result = await handleCommand(env.commandDeps, userDecider, userStream(id), command, metadata, {
    newStream: command.type === 'CreateUser',
  });
  return { state: result.state as StoredUser, events: result.events };
}

/**
 * Creates a user: the rules are checked first (nothing is reserved for a refused user), then
 * the email is reserved for its organization and environment, then the user is appended. A
 * failed append gives the email back.
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
  userDecider.decide(command, userDecider.initialState());
  const reservation = emailReservation(tenant, fields.email, id);
  if ((await reserveUnique(env.eventStore, reservation, metadata)) === 'taken')
    fail(fieldError('email', 'has already been taken'));
  try {
    return (await run(env, id, command, metadata)).state;
  } catch (error) {
    await releaseUnique(env.eventStore, reservation, metadata);
    throw error;
  }
}

/** Updates a user; a new email is reserved before and the old one released after. */
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
  const before = await env.view.documents.get(id);
  const newEmail =
    fields.email !== undefined &&
    before &&
    before.status === 'active' &&
    before.email_key !== emailKey(tenant.organization_id, tenant.environment, fields.email)
      ? emailReservation(tenant, fields.email, id)
      : undefined;
  if (newEmail) {
    userDecider.decide(command, before as StoredUser);
    if ((await reserveUnique(env.eventStore, newEmail, metadata)) === 'taken')
      fail(fieldError('email', 'has already been taken'));
  }
  try {
    const result = await run(env, id, command, metadata);
    for (const event of result.events) {
      const previous = (event.data as { previous_values?: { email?: string } }).previous_values?.email;
      if (previous !== undefined && emailKey(tenant.organization_id, tenant.environment, previous) !== result.state.email_key)
        await releaseUnique(env.eventStore, emailReservation(tenant, previous, id), metadata);
    }
    return result.state;
  } catch (error) {
    if (newEmail) await releaseUnique(env.eventStore, newEmail, metadata);
    throw error;
  }
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

/** Deletes a user and gives its email back to its organization and environment. */
export async function deleteUser(
  env: UsersEnv,
  tenant: Tenant,
  id: string,
  reason: UserDeletionReason,
  metadata: EventMetadata,
): Promise<StoredUser> {
  const { state } = await run(env, id, { type: 'DeleteUser', data: { tenant, reason, at: env.now().toISOString() } }, metadata);
  await releaseUnique(env.eventStore, emailReservation(tenant, state.email, id), metadata);
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
