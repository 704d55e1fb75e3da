import type { SsoConnection } from '@sesame/contracts';
import type { PresentSsoConnection } from './sso-connection.decider';
import { defaultOidcScopes } from './sso-connection.decider';
import { oidcRedirectUri, samlConfigOf } from './sp-values';

/** An OIDC connection's relying-party settings: never its client secret, only whether one is recorded. */
function oidcConfigOf(state: PresentSsoConnection, publicUrl: string): SsoConnection['oidc_config'] {
  if (state.settings.type !== 'oidc') return null;
  return {
    issuer: state.settings.oidc_issuer ?? null,
    client_id: state.settings.oidc_client_id ?? null,
    client_secret_set: state.oidc_client_secret !== null,
    scopes: state.settings.oidc_scopes ?? defaultOidcScopes,
    redirect_uri: oidcRedirectUri(publicUrl, state.sp_id),
  };
}

/** The public shape of a connection (the SP private key, certificate PEMs and OIDC client secret stay inside). */
export function toSsoConnection(state: PresentSsoConnection, publicUrl: string): SsoConnection {
  const { settings, idp } = state;
  return {
    __type__: 'SsoConnection',
    __domain__: state.organization_domain,
    __environment__: state.environment,
    id: state.id,
    sp_id: state.sp_id,
    type: settings.type ?? 'saml',
    active: settings.active,
    organization: state.organization_domain,
    provider_type: settings.provider_type,
    number_users_provisioning_limit: settings.number_users_provisioning_limit,
    users_access_policy: settings.users_access_policy,
    onboarding: settings.onboarding,
    metadata: settings.metadata,
    identity_provider: idp && {
      entity_id: idp.entity_id,
      sso_url: idp.sso_url,
      slo_url: idp.slo_url,
      certificates: idp.certificates.map(({ fingerprint_sha256, not_before, not_after }) => ({
        fingerprint_sha256,
        not_before,
        not_after,
      })),
    },
    saml_config: samlConfigOf(publicUrl, state.sp_id, idp?.entity_id ?? null),
    oidc_config: oidcConfigOf(state, publicUrl),
    update_profile_only_at_creation: settings.update_profile_only_at_creation,
    allow_idp_initiated: settings.allow_idp_initiated,
    inserted_at: state.inserted_at,
    updated_at: state.updated_at,
  };
}
