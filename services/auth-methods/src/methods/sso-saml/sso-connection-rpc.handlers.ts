import type { configureSsoConnectionRequestSchema, ssoTenantRequestSchema, z } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { ssoConnectionKey, ssoConnectionKeyOf } from './domain/sso-connection.decider';
import type { SsoConnectionCommand } from './domain/sso-connection.decider';
import { oidcRedirectUri, samlConfigOf, spIdOf } from './domain/sp-values';
import { changeOf, createCommand, findConnection, present, requireOrganization, run } from './sso-connections.deps';
import type { SsoConnectionsHandlerDeps } from './sso-connections.deps';

type TenantInput = z.infer<typeof ssoTenantRequestSchema>;

/** The connection of an organization, for the other services. */
export function findSsoConnectionHandler(deps: SsoConnectionsHandlerDeps) {
  return async (input: TenantInput) => {
    const connection = await findConnection(deps, spIdOf(input.organization_domain, input.environment));
    return ok({ sso_connection: connection ? present(deps, connection) : null });
  };
}

/** What the identity provider is told about our service provider, connection or not. */
export function spSettingsHandler(deps: SsoConnectionsHandlerDeps) {
  return async (input: TenantInput) => {
    const spId = spIdOf(input.organization_domain, input.environment);
    const connection = await findConnection(deps, spId);
    return ok({
      sp_id: spId,
      saml_config: samlConfigOf(deps.publicUrl, spId, connection?.idp?.entity_id ?? null),
      oidc_redirect_uri: oidcRedirectUri(deps.publicUrl, spId),
    });
  };
}

/** The onboarding page's configuration: the connection created, or its settings updated (an OIDC client secret sealed). */
export function configureSsoConnectionHandler(deps: SsoConnectionsHandlerDeps) {
  return async (input: z.infer<typeof configureSsoConnectionRequestSchema>, context: RequestContext) => {
    const { organization_domain: domain, environment, ...settings } = input;
    const organization = await requireOrganization(deps, domain, environment, context);
    const metadata = { ...deps.runtime.metadata(context), environment };
    const current = await findConnection(deps, spIdOf(domain, environment), organization.id);
    const [key, command]: [string, SsoConnectionCommand] = current
      ? [
          ssoConnectionKeyOf(current),
          { type: 'UpdateSsoConnection', data: { ...changeOf(deps, settings), at: deps.now().toISOString() } },
        ]
      : [ssoConnectionKey(environment, organization.id), await createCommand(deps, organization, environment, settings)];
    const { state } = await run(deps, key, command, metadata);
    return ok(present(deps, state));
  };
}
