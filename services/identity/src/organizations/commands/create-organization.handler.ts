import { randomUUID } from 'node:crypto';
import { authnConnections, fieldError, organizationProvisioners } from '@sesame/contracts';
import type { OperationInput, OrganizationSettings, createOrganization } from '@sesame/contracts';
import { created, failure } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy/tenant';
import { domainFromName } from '../domain/domain-slug';
import { toOrganization } from '../organization.resource';
import type { OrganizationsDeps } from '../organizations.deps';
import { runOrganizationCommand } from './organization.commands';

/**
 * Creates the organization in the environment of the API key (the other environment may have one
 * of the same domain, or of the same `tenant_id`).
 */
export function createOrganizationHandler(deps: OrganizationsDeps) {
  return async ({ body }: OperationInput<typeof createOrganization>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
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
      tenant_id: body.tenant_id ?? null,
      environments: [{ name: environment, status: 'up' }],
    };
    const organization = await runOrganizationCommand(
      deps,
      environment,
      domain,
      {
        type: 'CreateOrganization',
        data: {
          id: randomUUID(),
          domain,
          environment,
          settings,
          provisioners: [...organizationProvisioners],
          at: deps.now().toISOString(),
        },
      },
      deps.metadata(context),
    );
    return created(toOrganization(organization));
  };
}
