import type { Environment, OrganizationEvent } from '@sesame/contracts';
import { streamName } from '@sesame/platform';
import type { AggregateViewDefinition } from '@sesame/platform';
import { organizationDecider } from '../domain/organization.decider';
import type { OrganizationState } from '../domain/organization.decider';

export const organizationStreamCategory = 'organization';

/**
 * An organization is named by its environment and its domain: each environment has its own
 * organizations, and one domain may exist once in each (`sandbox:acme`, `production:acme`).
 */
export const organizationKey = (environment: Environment, domain: string) => `${environment}:${domain}`;

/** The stream of the organization of a key (`organizationKey`). */
export const organizationKeyStream = (key: string) => streamName(organizationStreamCategory, key);

/** `organization-<environment>:<domain>`: the stream is the organization and holds its domain's uniqueness. */
export const organizationStream = (environment: Environment, domain: string) =>
  organizationKeyStream(organizationKey(environment, domain));

/**
 * `organizations_v5` (v3: `tenant_id`; v4: the services awaited and those that confirmed; v5: domain verifications): one
 * document per live organization, keyed by `<environment>:<domain>`.
 */
export const organizationsView: AggregateViewDefinition<OrganizationState, OrganizationEvent> = {
  name: 'organizations',
  version: 5,
  category: organizationStreamCategory,
  decider: organizationDecider,
  isVisible: (state) => state.status === 'active',
  indexes: [
    ['environment', 'inserted_at'],
    ['allowed_email_domains', 'environment'],
  ],
};
