import type { OrganizationEvent } from '@sesame/contracts';

/**
 * What a service is told to remove when identity deletes an organization (`OrganizationDeleted`,
 * delivered at least once, possibly late): `organization_deleted_at` is the deletion's own time.
 */
export interface OrganizationDeletion {
  reason: 'organization_deleted';
  organization_deleted_at: string;
  at: string;
}

/** The deletion to decide on, for identity's `OrganizationDeleted` handled `at`. */
export const organizationDeletionOf = (
  deleted: Extract<OrganizationEvent, { type: 'OrganizationDeleted' }>,
  at: string,
): OrganizationDeletion => ({ reason: 'organization_deleted', organization_deleted_at: deleted.data.at, at });

/**
 * Whether a deletion of the organization applies to something created at `insertedAt` for its
 * domain: only to what was created before the deletion. A deletion that arrives late (its service
 * was down, or a replica failed on it) or again (redelivery) leaves alone what an organization of
 * the same domain created since. Every reaction to `OrganizationDeleted` decides with this rule.
 */
export const belongsToDeletedOrganization = (
  insertedAt: string,
  deletion: Pick<OrganizationDeletion, 'organization_deleted_at'>,
) => Date.parse(insertedAt) <= Date.parse(deletion.organization_deleted_at);
