import { organizationAcknowledgementCategory } from '@sesame/contracts';
import type { OrganizationAcknowledgementEvent, OrganizationEvent } from '@sesame/contracts';
import type { EventMetadata, RecordedEvent } from '../event-store/event-store.port';
import { streamName } from '../event-store/stream-name';
import { systemActor } from './actor';
import { handleCommand } from './command-handler';
import type { CommandHandlerDeps } from './command-handler';
import type { Decider } from './decider';

export type OrganizationAcknowledgementState = { acknowledged: boolean };

export type AcknowledgeOrganization = {
  type: 'AcknowledgeOrganization';
  data: OrganizationAcknowledgementEvent['data'];
};

/**
 * A provisioner's record of an organization it took in: once per organization id, so a
 * redelivered `OrganizationCreated` records nothing more (identity counts each service once anyway).
 */
export const organizationAcknowledgementDecider: Decider<
  OrganizationAcknowledgementState,
  AcknowledgeOrganization,
  OrganizationAcknowledgementEvent
> = {
  initialState: () => ({ acknowledged: false }),
  decide: (command, state) => (state.acknowledged ? [] : [{ type: 'OrganizationAcknowledged', data: command.data }]),
  evolve: () => ({ acknowledged: true }),
};

/** `organizationAcknowledgement-<organization id>`: an organization recreated with the same domain is another one. */
export const organizationAcknowledgementStream = (organizationId: string) =>
  streamName(organizationAcknowledgementCategory, organizationId);

/**
 * Records, in the service's own store, that its reaction to identity's organization events took in
 * `created` (identity's `OrganizationCreated`): identity reads it from the service's event feed and
 * counts it towards the organization's provisioning (`pending` until `terminated`). Called by the
 * feed that reacts to the organization's later events, once the service did what the creation asks of it.
 */
export async function acknowledgeOrganization(
  deps: CommandHandlerDeps<OrganizationAcknowledgementState>,
  created: RecordedEvent & Extract<OrganizationEvent, { type: 'OrganizationCreated' }>,
  /** Sesame's name for the reacting feed, `<service>:<feed>`. */
  actor: string,
): Promise<void> {
  const { id, domain, environment } = created.data;
  const metadata: EventMetadata = {
    correlationId: created.metadata.correlationId,
    causationId: created.id,
    actor: systemActor(actor),
    environment,
    occurredAt: new Date().toISOString(),
  };
  await handleCommand(
    deps,
    organizationAcknowledgementDecider,
    organizationAcknowledgementStream(id),
    { type: 'AcknowledgeOrganization', data: { organization_id: id, domain, environment, at: metadata.occurredAt } },
    metadata,
  );
}
