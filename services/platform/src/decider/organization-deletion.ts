import type { OrganizationEvent } from '@sesame/contracts';
import type { RecordedEvent } from '../event-store/event-store.port';
import { tenantOfEvent } from './tenant';

/**
 * What a service is told to remove when identity deletes an organization (`OrganizationDeleted`,
 * delivered at least once, possibly late): what the organization `organization_id` owns. A later
 * organization of the same domain has another id, so its own streams are left alone by a late or
 * redelivered deletion.
 */
export interface OrganizationDeletion {
  reason: 'organization_deleted';
  /** Null for a deletion recorded before it named the organization's id. */
  organization_id: string | null;
  at: string;
}

export type OrganizationDeleted = RecordedEvent & Extract<OrganizationEvent, { type: 'OrganizationDeleted' }>;

/** The deletion to decide on, for identity's `OrganizationDeleted` handled `at`. */
export const organizationDeletionOf = (deleted: OrganizationDeleted, at: string): OrganizationDeletion => ({
  reason: 'organization_deleted',
  organization_id: tenantOfEvent(deleted)?.organization_id ?? null,
  at,
});

/**
 * Whether a deletion applies to an aggregate of the organization `owner`: only to the deleted
 * organization's own. An aggregate recorded before it named its organization (null owner) is its
 * domain's: it goes with the organization of that domain deleted after it was recorded (a deletion
 * recorded before deletions named the organization only removes such aggregates).
 */
export const ownedByDeletedOrganization = (
  owner: string | null | undefined,
  deletion: Pick<OrganizationDeletion, 'organization_id'>,
) => owner === null || owner === undefined || owner === deletion.organization_id;
