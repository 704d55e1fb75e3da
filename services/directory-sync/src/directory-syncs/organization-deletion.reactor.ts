import type { OrganizationEvent } from '@sesame/contracts';
import { acknowledgeOrganization, organizationDeletionOf, systemActor } from '@sesame/platform';
import type { Commit, Logger, RecordedEvent } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { directorySyncAggregate } from './commands/directory-sync.aggregate';
import { directorySyncKey, directorySyncLegacyKey } from './projections/directory-syncs.projection';

/**
 * Follows identity's organizations. A new one (`OrganizationCreated`) is acknowledged in this
 * service's store (identity counts it towards the organization's provisioning).
 * When identity deletes an organization (`OrganizationDeleted` on its event feed, at least once):
 * its directory sync goes, in the organization's own environment only (`DirectorySyncDeleted`; the
 * other environment's organization of the same domain is another one), so the read model
 * drops it and its SCIM token stops working (401). A directory sync is kept under its
 * organization's id (`directorySyncKey`), so a new organization of the same domain never sees it and
 * a late or redelivered deletion leaves the new one's alone. One recorded under its domain before
 * (`directorySyncLegacyKey`) goes with the deleted organization unless it names another one; one
 * recorded before directory syncs named their organization goes with its domain's organization.
 */
export function organizationDeletionReactor(deps: {
  runtime: Pick<ServiceRuntime, 'commandDeps' | 'aggregate'>;
  logger: Logger;
  now(): Date;
}) {
  const directorySyncs = deps.runtime.aggregate(directorySyncAggregate);
  const deleteDirectorySyncs = async (event: RecordedEvent & Extract<OrganizationEvent, { type: 'OrganizationDeleted' }>) => {
    const { domain, environment } = event.data;
    const at = deps.now().toISOString();
    const deletion = organizationDeletionOf(event, at);
    const metadata = {
      correlationId: event.metadata.correlationId,
      causationId: event.id,
      actor: systemActor('directory-sync:organization-deletion'),
      environment,
      occurredAt: at,
    };
    const command = { type: 'DeleteDirectorySync' as const, data: deletion };
    if (deletion.organization_id)
      await directorySyncs.handle(directorySyncKey(environment, deletion.organization_id), command, { ...metadata });
    // One recorded under the domain goes too, unless it names another organization (the decider leaves it).
    await directorySyncs.handle(directorySyncLegacyKey(environment, domain), command, { ...metadata });
  };

  return async (commit: Commit): Promise<void> => {
    for (const event of commit.events as (RecordedEvent & OrganizationEvent)[])
      if (event.type === 'OrganizationCreated')
        await acknowledgeOrganization(deps.runtime.commandDeps(), event, 'directory-sync:organizations');
      else if (event.type === 'OrganizationDeleted') {
        await deleteDirectorySyncs(event);
        deps.logger.info(
          { organization: event.data.domain, environment: event.data.environment },
          'directory sync of the deleted organization removed',
        );
      }
  };
}
