import type { OrganizationAcknowledgementEvent, OrganizationProvisioner } from '@sesame/contracts';
import { systemActor } from '@sesame/platform';
import type { Commit, EventMetadata, RecordedEvent } from '@sesame/platform';
import { runOrganizationCommand } from '../commands/organization.commands';
import type { OrganizationsDeps } from '../organizations.deps';

/**
 * Reads `service`'s acknowledgements of the organizations it took in (its event feed, at least
 * once) and records each on the organization as a confirmation by that service: the organization's
 * provisioning is `terminated` once every service it awaits confirmed. The feed says which service
 * confirms, not the event. A confirmation for an organization deleted or recreated since changes nothing.
 */
export function organizationProvisioningReactor(
  deps: Pick<OrganizationsDeps, 'organizations' | 'now'>,
  service: OrganizationProvisioner,
) {
  return async (commit: Commit): Promise<void> => {
    for (const event of commit.events as (RecordedEvent & OrganizationAcknowledgementEvent)[]) {
      if (event.type !== 'OrganizationAcknowledged') continue;
      const { organization_id, domain, environment } = event.data;
      const metadata: EventMetadata = {
        correlationId: event.metadata.correlationId,
        causationId: event.id,
        actor: systemActor(`${service}:organizations`),
        environment,
        occurredAt: deps.now().toISOString(),
      };
      await runOrganizationCommand(
        deps,
        environment,
        domain,
        { type: 'ConfirmOrganizationProvisioning', data: { organization_id, service, at: metadata.occurredAt } },
        metadata,
      );
    }
  };
}
