import { randomUUID } from 'node:crypto';
import { authnConnections, fieldError } from '@sesame/contracts';
import type { OperationInput, OrganizationSettings, createOrganization } from '@sesame/contracts';
import { created, failure, handleCommand, streamName } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { domainFromName } from '../domain/domain-slug';
import { organizationDecider } from '../domain/organization.decider';
import { toOrganization } from '../organization.resource';
import type { OrganizationsEnv, StoredOrganization } from '../organizations.env';
import { organizationStreamCategory } from '../projections/organizations.projection';

export function createOrganizationHandler(env: OrganizationsEnv) {
  return async ({ body }: OperationInput<typeof createOrganization>, context: RequestContext) => {
    const domain = domainFromName(body.name);
    if (!domain) return failure(fieldError('name', 'must contain at least one letter or digit'));
    const settings: OrganizationSettings = {
      name: body.name,
      allowed_email_domains: [...new Set(body.allowed_email_domains ?? [])],
      allowed_authn_connections: [...new Set(body.allowed_authn_connections ?? authnConnections)],
      color: body.color ?? null,
      icon_logo_url: body.icon_logo_url ?? null,
      inline_logo_url: body.inline_logo_url ?? null,
      locale: body.locale ?? null,
      timezone: body.timezone ?? null,
      environments: [
        { name: 'sandbox', status: 'up' },
        { name: 'production', status: 'up' },
      ],
    };
    const result = await handleCommand(
      env.commandDeps,
      organizationDecider,
      streamName(organizationStreamCategory, domain),
      { type: 'CreateOrganization', data: { id: randomUUID(), domain, settings, at: env.now().toISOString() } },
      env.metadata(context),
    );
    return created(toOrganization(result.state as StoredOrganization));
  };
}
