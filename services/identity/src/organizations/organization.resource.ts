import type { Organization } from '@sesame/contracts';
import type { OrganizationState } from './domain/organization.decider';
import { organizationStatus } from './domain/organization-status';

type Stored = Exclude<OrganizationState, { status: 'empty' }>;

/** The API representation of an organization (SPEC.md section 3). */
export function toOrganization(state: Stored): Organization {
  return {
    __type__: 'Organization',
    __domain__: state.domain,
    __environment__: state.environment,
    id: state.id,
    name: state.name,
    domain: state.domain,
    tenant_id: state.tenant_id,
    allowed_email_domains: state.allowed_email_domains,
    allowed_authn_connections: state.allowed_authn_connections,
    color: state.color,
    icon_logo_url: state.icon_logo_url,
    inline_logo_url: state.inline_logo_url,
    locale: state.locale,
    timezone: state.timezone,
    environments: state.environments,
    status: organizationStatus(state),
    inserted_at: state.inserted_at,
    updated_at: state.updated_at,
  };
}
