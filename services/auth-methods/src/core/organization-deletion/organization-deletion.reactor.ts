import type { Environment, OrganizationEvent } from '@sesame/contracts';
import { acknowledgeOrganization, handleCommand, organizationDeletionOf } from '@sesame/platform';
import type {
  Commit,
  Decider,
  DomainEvent,
  EventMetadata,
  Logger,
  OrganizationDeletion,
  ProjectionRunner,
  RecordedEvent,
} from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { magicLinkConnectionDecider } from '../../methods/magic-link/domain/magic-link-connection.decider';
import type { MagicLinkConnectionsView } from '../../methods/magic-link/projections/magic-link-connections.projection';
import { magicLinkConnectionStream } from '../../methods/magic-link/projections/magic-link-connections.projection';
import { passwordConnectionDecider } from '../../methods/password/domain/password-connection.decider';
import { relayDecider } from '../../methods/relays/domain/relay.decider';
import { sourceOrganizationsOf } from '../../methods/relays/domain/relay-policy';
import { relayStream } from '../../methods/relays/projections/relays.projection';
import type { RelaysView } from '../../methods/relays/projections/relays.projection';
import { passwordConnectionStream } from '../../methods/password/password.deps';
import { spIdOf } from '../../methods/sso-saml/domain/sp-values';
import { ssoConnectionDecider } from '../../methods/sso-saml/domain/sso-connection.decider';
import { ssoConnectionStream } from '../../methods/sso-saml/projections/sso-connections.projection';
import { totpConnectionDecider } from '../../methods/totp/domain/totp-connection.decider';
import type { TotpConnectionsView } from '../../methods/totp/projections/totp.projection';
import { totpConnectionStream } from '../../methods/totp/projections/totp.projection';

export interface OrganizationDeletionDeps {
  runtime: Pick<ServiceRuntime, 'commandDeps'>;
  projections: Pick<ProjectionRunner, 'caughtUp'>;
  magicLinkConnections: Pick<MagicLinkConnectionsView, 'documents'>;
  totpConnections: Pick<TotpConnectionsView, 'documents'>;
  relays: Pick<RelaysView, 'documents'>;
  logger: Logger;
  now(): Date;
}

const metadataOf = (event: RecordedEvent, at: Date): EventMetadata => ({
  correlationId: event.metadata.correlationId,
  causationId: event.id,
  actor: 'auth-methods:organization-deletion',
  occurredAt: at.toISOString(),
});

/**
 * Follows identity's organizations. A new one (`OrganizationCreated`) is acknowledged in this
 * service's store (identity counts it towards the organization's provisioning): from then on this
 * feed has it and will clean up after it.
 * When identity deletes an organization (`OrganizationDeleted` on its event feed, at least once):
 * its SSO connection, password, magic-link and TOTP connections go, in the organization's own
 * environment only (the other environment's organization of the same domain is another one), each
 * with its own deletion event, so the read models drop them and a connection created for a new
 * organization of the same domain starts clean. Relays into it go too, and relays taking its users
 * stop naming it. Each decider removes only what was created
 * before the deletion, so a late or redelivered deletion leaves a re-created organization's alone.
 * Pending SAML requests of the deleted connection are refused from then on (no connection).
 */
export function organizationDeletionReactor(deps: OrganizationDeletionDeps) {
  const run = async <State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    stream: string,
    command: Command,
    metadata: EventMetadata,
  ) => {
    await handleCommand(deps.runtime.commandDeps<State>(), decider, stream, command, { ...metadata });
  };

  const deleteConnections = async (
    domain: string,
    environment: Environment,
    data: OrganizationDeletion,
    event: RecordedEvent,
  ) => {
    await deps.projections.caughtUp();
    const metadata = { ...metadataOf(event, deps.now()), environment };
    await run(
      ssoConnectionDecider,
      ssoConnectionStream(spIdOf(domain, environment)),
      { type: 'DeleteSsoConnection', data },
      metadata,
    );
    await run(
      passwordConnectionDecider,
      passwordConnectionStream(environment, domain),
      { type: 'DeletePasswordConnection', data },
      metadata,
    );
    const filter = { 'tenant.organization_domain': domain, 'tenant.environment': environment };
    for (const { tenant } of await deps.magicLinkConnections.documents.find(filter))
      if (tenant)
        await run(
          magicLinkConnectionDecider,
          magicLinkConnectionStream(tenant.environment, tenant.organization_id),
          { type: 'DeleteMagicLinkConnection', data },
          metadata,
        );
    for (const { tenant } of await deps.totpConnections.documents.find(filter))
      if (tenant)
        await run(
          totpConnectionDecider,
          totpConnectionStream(tenant.environment, tenant.organization_id),
          { type: 'DeleteTotpConnection', data },
          metadata,
        );
    for (const { relay } of await deps.relays.documents.find({ 'relay.environment': environment }))
      if (relay && (relay.partner_domain === domain || sourceOrganizationsOf(relay).includes(domain)))
        await run(
          relayDecider,
          relayStream(relay.id),
          { type: 'ForgetOrganization', data: { domain, environment, deletion: data } },
          metadata,
        );
  };

  return async (commit: Commit): Promise<void> => {
    for (const event of commit.events as (RecordedEvent & OrganizationEvent)[])
      if (event.type === 'OrganizationCreated')
        await acknowledgeOrganization(deps.runtime.commandDeps(), event, 'auth-methods:organizations');
      else if (event.type === 'OrganizationDeleted') {
        const { domain, environment } = event.data;
        await deleteConnections(domain, environment, organizationDeletionOf(event, deps.now().toISOString()), event);
        deps.logger.info({ organization: domain, environment }, 'sign-in connections of the deleted organization removed');
      }
  };
}
