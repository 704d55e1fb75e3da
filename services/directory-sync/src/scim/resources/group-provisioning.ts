import { subjects } from '@sesame/contracts';
import type { DirectorySyncData } from '@sesame/contracts';
import { provisioningMeta } from '../../identity-client';
import type { IdentityCalls } from '../../identity-client';

/**
 * Keeps the Sesame group a SCIM group provisions in step with it (identity's group subjects):
 * its display name, and as members the Sesame users its SCIM members provision.
 */
export class GroupProvisioning {
  constructor(private readonly identity: IdentityCalls) {}

  async sync(
    directory: DirectorySyncData,
    displayName: string,
    userIds: string[],
    linkedId: string | null,
    correlationId: string,
  ): Promise<string> {
    const members = [...new Set(userIds)];
    const scope = { organization_domain: directory.organization_domain, environment: directory.environment };
    if (linkedId) {
      const { group } = await this.identity.call(
        subjects.identity.groups.get,
        { ...scope, id: linkedId },
        provisioningMeta(directory, correlationId),
      );
      if (group) {
        await this.identity.call(
          subjects.identity.groups.update,
          { ...scope, id: linkedId, display_name: displayName, members },
          provisioningMeta(directory, correlationId),
        );
        return linkedId;
      }
    }
    const created = await this.identity.call(
      subjects.identity.groups.create,
      { ...scope, display_name: displayName, members },
      provisioningMeta(directory, correlationId),
    );
    return created.id;
  }

  async remove(directory: DirectorySyncData, linkedId: string, correlationId: string): Promise<void> {
    const scope = { organization_domain: directory.organization_domain, environment: directory.environment };
    const { group } = await this.identity.call(
      subjects.identity.groups.get,
      { ...scope, id: linkedId },
      provisioningMeta(directory, correlationId),
    );
    if (group)
      await this.identity.call(
        subjects.identity.groups.delete,
        { ...scope, id: linkedId },
        provisioningMeta(directory, correlationId),
      );
  }
}
