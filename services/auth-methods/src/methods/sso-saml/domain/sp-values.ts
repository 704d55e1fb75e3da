import type { Environment, SamlConfig } from '@sesame/contracts';

/**
 * Our service-provider identity for one organization and environment: `sp_id` is
 * `<org_domain>_<environment>` (organization domains are lowercase slugs with dashes, never
 * underscores), so every URL of the connection is known before it exists.
 */
export const spIdOf = (organizationDomain: string, environment: Environment) => `${organizationDomain}_${environment}`;

export function tenantOfSpId(spId: string): { organization_domain: string; environment: Environment } | null {
  const match = /^([a-z0-9-]+)_(sandbox|production)$/.exec(spId);
  return match ? { organization_domain: match[1] as string, environment: match[2] as Environment } : null;
}

export const spBaseUrl = (publicUrl: string, spId: string) => `${publicUrl.replace(/\/$/, '')}/sso/saml/${spId}`;

/** Our OIDC callback for one connection: the redirect URI registered at the identity provider. */
export const oidcRedirectUri = (publicUrl: string, spId: string) => `${publicUrl.replace(/\/$/, '')}/sso/oidc/${spId}/callback`;

export function samlConfigOf(publicUrl: string, spId: string, idpEntityId: string | null): SamlConfig {
  const base = spBaseUrl(publicUrl, spId);
  return {
    acs_url: `${base}/acs`,
    entity_id: `${base}/metadata`,
    cryptr_metadata_url: `${base}/metadata`,
    slo_url: `${base}/slo`,
    slo_response_url: `${base}/slo/response`,
    sso_provider_metadata: idpEntityId,
  };
}
