import type { OrganizationEvent } from '@sesame/contracts';
import { organizationDeletionOf, systemActor } from '@sesame/platform';
import type { RecordedEvent } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { webhookAggregate } from './commands/webhook.aggregate';
import type { WebhooksView } from './webhooks.deps';

export type OrganizationDeleted = RecordedEvent & Extract<OrganizationEvent, { type: 'OrganizationDeleted' }>;

/**
 * When identity deletes an organization (`OrganizationDeleted` on the identity feed, at least once):
 * the webhooks scoped to it, in its environment only, are deleted (their pending deliveries are then
 * cancelled). A webhook names the id of the organization it is scoped to: a redelivered or late
 * deletion leaves alone a webhook scoped since to a new organization of the same domain.
 */
export async function deleteWebhooksOfDeletedOrganization(
  runtime: Pick<ServiceRuntime, 'aggregate' | 'logger'>,
  view: WebhooksView,
  event: OrganizationDeleted,
): Promise<void> {
  const { domain, environment } = event.data;
  const scoped = await view.documents.find({ environment, organization_domain: domain });
  const webhooks = runtime.aggregate(webhookAggregate);
  for (const webhook of scoped) {
    await webhooks.handle(
      webhook.id,
      {
        type: 'DeleteWebhookOfDeletedOrganization',
        data: { ...organizationDeletionOf(event, new Date().toISOString()), domain },
      },
      {
        correlationId: event.metadata.correlationId,
        causationId: event.id,
        actor: systemActor('webhooks:organization-deletion'),
        environment,
        occurredAt: new Date().toISOString(),
      },
    );
    runtime.logger.info(
      { webhook: webhook.id, organization: domain, environment },
      'webhook of the deleted organization removed',
    );
  }
}
