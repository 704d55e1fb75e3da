import { catalogueError, refusedField } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import type { EventMetadata, HandleOptions, Reservation, UniqueClaim } from '@sesame/platform';
import { verifiedDomainReservationKind, verifiedDomains } from '../domain/domain-verification';
import { organizationDecider } from '../domain/organization.decider';
import type { OrganizationCommand, OrganizationState } from '../domain/organization.decider';
import type { OrganizationsDeps, StoredOrganization } from '../organizations.deps';
import { organizationKey, organizationKeyStream } from '../projections/organizations.projection';

export const tenantIdReservationKind = 'organizationTenantId';

/** A `tenant_id` is unique among the organizations of one environment, as the domain is. */
export const tenantIdReservation = (environment: Environment, tenantId: string, domain: string): Reservation => ({
  kind: tenantIdReservationKind,
  value: `${environment}:${tenantId}`,
  owner: organizationKeyStream(organizationKey(environment, domain)),
});

/** The `tenant_id` a live organization holds. */
const heldTenantId = (state: OrganizationState) => (state.status === 'active' ? state.tenant_id : null);

/** The `tenant_id` a command asks for: the created organization's, or a change to another value (null: none). */
function requestedTenantId(command: OrganizationCommand): string | null | undefined {
  if (command.type === 'CreateOrganization') return command.data.settings.tenant_id;
  if (command.type === 'UpdateOrganization') return command.data.changes.tenant_id;
  return undefined;
}

/**
 * The `tenant_id` reservations of a command on the organization `domain` of `environment`: the
 * value it asks for is taken (422 on `tenant_id` when another organization holds it) unless the
 * organization holds it already; the value it held is given back once it holds another one, none,
 * or is deleted.
 */
export function tenantIdClaims(
  environment: Environment,
  domain: string,
  command: OrganizationCommand,
): Required<Pick<HandleOptions<OrganizationState>, 'take' | 'release'>> {
  const reservation = (tenantId: string) => tenantIdReservation(environment, tenantId, domain);
  return {
    take: (state): UniqueClaim[] => {
      const requested = requestedTenantId(command);
      if (requested === undefined || requested === null || requested === heldTenantId(state)) return [];
      return [{ reservation: reservation(requested), taken: refusedField('tenant_id', 'taken') }];
    },
    release: (before, after) => {
      const previous = heldTenantId(before);
      return previous !== null && previous !== heldTenantId(after) ? [reservation(previous)] : [];
    },
  };
}

/** A verified email domain is one organization's among those of its environment. */
export const verifiedDomainReservation = (environment: Environment, emailDomain: string, domain: string): Reservation => ({
  kind: verifiedDomainReservationKind,
  value: `${environment}:${emailDomain}`,
  owner: organizationKeyStream(organizationKey(environment, domain)),
});

/** The email domains a live organization holds verified. */
const heldVerifiedDomains = (state: OrganizationState) => (state.status === 'active' ? verifiedDomains(state) : []);

/**
 * The verified-domain reservations of a command: a domain the command verifies is taken (409
 * `domain_verified_by_another_organization` when another organization of the environment holds
 * it); a domain the organization no longer holds verified (taken out of its `allowed_email_domains`,
 * or the organization deleted) is given back.
 */
export function verifiedDomainClaims(
  environment: Environment,
  domain: string,
  command: OrganizationCommand,
): Required<Pick<HandleOptions<OrganizationState>, 'take' | 'release'>> {
  return {
    take: (state): UniqueClaim[] =>
      organizationDecider
        .decide(command, state)
        .flatMap((event) => (event.type === 'DomainVerified' ? [event.data.email_domain] : []))
        .map((emailDomain) => ({
          reservation: verifiedDomainReservation(environment, emailDomain, domain),
          taken: catalogueError('domain_verified_by_another_organization'),
        })),
    release: (before, after) => {
      const kept = heldVerifiedDomains(after);
      return heldVerifiedDomains(before)
        .filter((emailDomain) => !kept.includes(emailDomain))
        .map((emailDomain) => verifiedDomainReservation(environment, emailDomain, domain));
    },
  };
}

/** Runs a command on the organization `domain` of `environment` with its `tenant_id` and verified-domain claims. */
export async function runOrganizationCommand(
  deps: Pick<OrganizationsDeps, 'organizations'>,
  environment: Environment,
  domain: string,
  command: OrganizationCommand,
  metadata: EventMetadata,
): Promise<StoredOrganization> {
  const tenantIds = tenantIdClaims(environment, domain, command);
  const verified = verifiedDomainClaims(environment, domain, command);
  const result = await deps.organizations.handle(organizationKey(environment, domain), command, metadata, {
    take: (state) => [...tenantIds.take(state), ...verified.take(state)],
    release: (before, after) => [...tenantIds.release(before, after), ...verified.release(before, after)],
  });
  return result.state as StoredOrganization;
}
