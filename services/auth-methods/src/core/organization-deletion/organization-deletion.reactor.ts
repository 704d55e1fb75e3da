import type { Environment, OrganizationEvent } from '@sesame/contracts';
import { acknowledgeOrganization, organizationDeletionOf, systemActor } from '@sesame/platform';
import type {
  AggregateType,
  Commit,
  DomainEvent,
  EventMetadata,
  Logger,
  OrganizationDeleted,
  OrganizationDeletion,
  ProjectionRunner,
  RecordedEvent,
} from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { magicLinkConnectionAggregate } from '../../methods/magic-link/magic-link.aggregates';
import { magicLinkConnectionKey } from '../../methods/magic-link/projections/magic-link-connections.projection';
import { sourceOrganizationsOf } from '../../methods/relays/domain/relay-policy';
import type { RelaysView } from '../../methods/relays/projections/relays.projection';
import { relayAggregate } from '../../methods/relays/relay.aggregates';
import {
  passwordConnectionAggregate,
  passwordConnectionKey,
  passwordConnectionLegacyKey,
} from '../../methods/password/password.aggregates';
import { spIdOf } from '../../methods/sso-saml/domain/sp-values';
import { ssoConnectionKey, ssoConnectionKeyOf } from '../../methods/sso-saml/domain/sso-connection.decider';
import { ssoConnectionAggregate } from '../../methods/sso-saml/sso-connection.aggregates';
import type { SsoConnectionsView } from '../../methods/sso-saml/sso-connections.deps';
import { totpConnectionKey } from '../../methods/totp/projections/totp.projection';
import { totpConnectionAggregate } from '../../methods/totp/totp.aggregates';

export interface OrganizationDeletionDeps {
  runtime: Pick<ServiceRuntime, 'commandDeps' | 'aggregate'>;
  projections: Pick<ProjectionRunner, 'caughtUp'>;
  ssoConnections: Pick<SsoConnectionsView, 'documents'>;
  relays: Pick<RelaysView, 'documents'>;
  logger: Logger;
  now(): Date;
}

const metadataOf = (event: RecordedEvent, at: Date): EventMetadata => ({
  correlationId: event.metadata.correlationId,
  causationId: event.id,
  actor: systemActor('auth-methods:organization-deletion'),
  occurredAt: at.toISOString(),
});

/**
 * Follows identity's organizations. A new one (`OrganizationCreated`) is acknowledged in this
 * service's store (identity counts it towards the organization's provisioning): from then on this
 * feed has it and will clean up after it.
 * When identity deletes an organization (`OrganizationDeleted` on its event feed, at least once):
 * its SSO connection, password, magic-link and TOTP connections go, each with its own deletion
 * event, so the read models drop them and a connection created for a new organization of the same
 * domain starts clean. They are the organization's own streams (named by its id in its environment):
 * a late or redelivered deletion leaves a re-created organization's alone, as it has another id.
 * What was recorded before connections were keyed by their organization (an SSO connection's stream
 * named by its SP id, a password connection's by its domain) goes with it unless it names another
 * organization. Relays into it go too, and relays taking its users stop naming it.
 * Pending SAML requests of the deleted connection are refused from then on (no connection).
 * A deletion recorded before deletions named the organization's id removes only what its domain names.
 */
export function organizationDeletionReactor(deps: OrganizationDeletionDeps) {
  const run = async <State, Command, Event extends DomainEvent>(
    type: AggregateType<State, Command, Event>,
    id: string,
    command: Command,
    metadata: EventMetadata,
  ) => {
    await deps.runtime.aggregate(type).handle(id, command, { ...metadata });
  };

  /** The streams named by the organization's id. */
  const deleteOwnConnections = async (
    organizationId: string,
    environment: Environment,
    data: OrganizationDeletion,
    metadata: EventMetadata,
  ) => {
    const sso = ssoConnectionKey(environment, organizationId);
    await run(ssoConnectionAggregate, sso, { type: 'DeleteSsoConnection', data }, metadata);
    const magicLink = magicLinkConnectionKey(environment, organizationId);
    await run(magicLinkConnectionAggregate, magicLink, { type: 'DeleteMagicLinkConnection', data }, metadata);
    const totp = totpConnectionKey(environment, organizationId);
    await run(totpConnectionAggregate, totp, { type: 'DeleteTotpConnection', data }, metadata);
    const password = passwordConnectionKey(environment, organizationId);
    await run(passwordConnectionAggregate, password, { type: 'DeletePasswordConnection', data }, metadata);
  };

  /** The streams named by the domain: SSO and password connections created before connections were keyed by their organization. */
  const deleteDomainConnections = async (
    domain: string,
    environment: Environment,
    data: OrganizationDeletion,
    metadata: EventMetadata,
  ) => {
    for (const legacy of await deps.ssoConnections.documents.find({ sp_id: spIdOf(domain, environment), organization_id: null }))
      if (legacy.status === 'present')
        await run(ssoConnectionAggregate, ssoConnectionKeyOf(legacy), { type: 'DeleteSsoConnection', data }, metadata);
    const legacyPassword = passwordConnectionLegacyKey(environment, domain);
    await run(passwordConnectionAggregate, legacyPassword, { type: 'DeletePasswordConnection', data }, metadata);
  };

  const deleteConnections = async (event: OrganizationDeleted) => {
    const { domain, environment } = event.data;
    const data = organizationDeletionOf(event, deps.now().toISOString());
    const metadata = { ...metadataOf(event, deps.now()), environment };
    await deps.projections.caughtUp();
    if (data.organization_id) await deleteOwnConnections(data.organization_id, environment, data, metadata);
    await deleteDomainConnections(domain, environment, data, metadata);
    for (const { relay } of await deps.relays.documents.find({ 'relay.environment': environment }))
      if (relay && (relay.partner_domain === domain || sourceOrganizationsOf(relay).includes(domain)))
        await run(
          relayAggregate,
          relay.id,
          { type: 'ForgetOrganization', data: { domain, environment, deletion: data } },
          metadata,
        );
  };

  return async (commit: Commit): Promise<void> => {
    for (const event of commit.events as (RecordedEvent & OrganizationEvent)[])
      if (event.type === 'OrganizationCreated')
        await acknowledgeOrganization(deps.runtime.commandDeps(), event, 'auth-methods:organizations');
      else if (event.type === 'OrganizationDeleted') {
        await deleteConnections(event as OrganizationDeleted);
        const { domain, environment } = event.data;
        deps.logger.info({ organization: domain, environment }, 'sign-in connections of the deleted organization removed');
      }
  };
}
