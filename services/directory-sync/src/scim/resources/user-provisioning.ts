import { errorCatalogue, scimError, subjects } from '@sesame/contracts';
import type { DirectorySyncData, User } from '@sesame/contracts';
import { DomainError, RpcRefusal } from '@sesame/platform';
import { mapScimUser } from '../../attributes-mapping/domain/map-user';
import type { MappedUser } from '../../attributes-mapping/domain/map-user';
import type { MappingOf } from '../../attributes-mapping/attributes-mapping.deps';
import { provisioningMeta } from '../../identity-client';
import type { IdentityCalls } from '../../identity-client';
import { scimFail } from '../protocol/scim-error';

type ScimObject = Record<string, unknown>;

/**
 * Keeps the Sesame user a SCIM user provisions in step with it, through identity's subjects:
 * fields from the attribute mapping, `active` false deactivates (identity `users.deactivate`).
 * A SCIM user becomes a Sesame user once it has an email; a Sesame user that already has that
 * email in the organization is linked rather than duplicated.
 */
export class UserProvisioning {
  constructor(
    private readonly identity: IdentityCalls,
    private readonly mappingOf: MappingOf,
  ) {}

  /** The Sesame user id the resource is linked to after the change (null: no usable email yet). */
  async sync(
    directory: DirectorySyncData,
    resource: ScimObject,
    linkedId: string | null,
    correlationId: string,
  ): Promise<string | null> {
    const mapped = mapScimUser(resource, await this.mappingOf(directory.environment));
    if (!mapped.ok) scimFail(400, mapped.problems.join('; '), 'invalidValue');
    const active = resource.active !== false;
    try {
      if (linkedId && (await this.modifyIfExists(directory, linkedId, mapped.user, active, correlationId))) return linkedId;
      if (!mapped.user.email) return null;
      return await this.create(directory, { ...mapped.user, email: mapped.user.email }, active, correlationId);
    } catch (error) {
      throw scimErrorOf(error);
    }
  }

  /** Deletes the Sesame user unless another SCIM user of the organization still provisions it. */
  async remove(directory: DirectorySyncData, linkedId: string, stillLinked: boolean, correlationId: string): Promise<void> {
    if (stillLinked || !(await this.exists(directory, linkedId, correlationId))) return;
    await this.identity.call(
      subjects.identity.users.remove,
      { ...scope(directory), id: linkedId },
      provisioningMeta(directory, correlationId),
    );
  }

  private async exists(directory: DirectorySyncData, id: string, correlationId: string): Promise<boolean> {
    const { user } = await this.identity.call(
      subjects.identity.users.findById,
      { ...scope(directory), id },
      provisioningMeta(directory, correlationId),
    );
    return user !== null;
  }

  private async create(
    directory: DirectorySyncData,
    user: MappedUser & { email: string },
    active: boolean,
    correlationId: string,
  ) {
    const existing = await this.identity.call(
      subjects.identity.users.findByEmail,
      { ...scope(directory), email: user.email },
      provisioningMeta(directory, correlationId),
    );
    if (existing.user) {
      await this.modify(directory, existing.user.id, user, active, correlationId);
      return existing.user.id;
    }
    const created = await this.identity.call(
      subjects.identity.users.provision,
      { ...scope(directory), ...fields(user), email: user.email, active, source: 'scim' },
      provisioningMeta(directory, correlationId),
    );
    return created.id;
  }

  /**
   * Modifies the linked Sesame user if it still exists: identity refuses an unknown one (deleted,
   * or of another organization) as not found, and that is the answer (no lookup before: one call fewer).
   */
  private async modifyIfExists(
    directory: DirectorySyncData,
    id: string,
    user: MappedUser,
    active: boolean,
    correlationId: string,
  ): Promise<boolean> {
    let current: User;
    try {
      current = await this.update(directory, id, user, correlationId);
    } catch (error) {
      if (error instanceof RpcRefusal && error.reason === 'resource_not_found') return false;
      throw error;
    }
    await this.activate(directory, id, current.active, active, correlationId);
    return true;
  }

  private async modify(directory: DirectorySyncData, id: string, user: MappedUser, active: boolean, correlationId: string) {
    const current = await this.update(directory, id, user, correlationId);
    await this.activate(directory, id, current.active, active, correlationId);
  }

  private update(directory: DirectorySyncData, id: string, user: MappedUser, correlationId: string): Promise<User> {
    return this.identity.call(
      subjects.identity.users.modify,
      { ...scope(directory), id, ...fields(user) },
      provisioningMeta(directory, correlationId),
    );
  }

  /** `active` false deactivates the Sesame user, true reactivates it. */
  private async activate(directory: DirectorySyncData, id: string, was: boolean, active: boolean, correlationId: string) {
    if (was && !active)
      await this.identity.call(
        subjects.identity.users.deactivate,
        { ...scope(directory), id },
        provisioningMeta(directory, correlationId),
      );
    if (!was && active)
      await this.identity.call(
        subjects.identity.users.modify,
        { ...scope(directory), id, active: true },
        provisioningMeta(directory, correlationId),
      );
  }
}

const scope = (directory: DirectorySyncData) => ({
  organization_domain: directory.organization_domain,
  environment: directory.environment,
});

function fields(user: MappedUser) {
  return {
    ...(user.email ? { email: user.email } : {}),
    ...(user.phone_number ? { phone_number: user.phone_number } : {}),
    ...(Object.keys(user.profile).length > 0 ? { profile: user.profile } : {}),
    ...(Object.keys(user.address).length > 0 ? { address: user.address } : {}),
    ...(Object.keys(user.metadata).length > 0 ? { metadata: user.metadata } : {}),
  };
}

/**
 * Identity's refusals in SCIM terms: a taken email is 409 `uniqueness`, other field errors 400
 * `invalidValue`; the plan's user limit is 403 with no `scimType` (RFC 7644 section 3.12 has none
 * for it; 403 is "not permitted", which licence-limited SCIM servers answer too).
 */
export function scimErrorOf(error: unknown): unknown {
  if (!(error instanceof RpcRefusal)) return error;
  if (error.reason === 'user_limit_reached') return new DomainError(scimError(403, errorCatalogue.user_limit_reached.message));
  if (error.error.kind !== 'fields') return error;
  const detail = Object.entries(error.error.fields)
    .map(([field, messages]) => `${field} ${messages.join(', ')}`)
    .join('; ');
  const taken = error.reason === 'taken';
  return new DomainError(scimError(taken ? 409 : 400, detail, taken ? 'uniqueness' : 'invalidValue'));
}
