import type { SsoConnection } from '@sesame/contracts';
import type { PresentSsoConnection } from './sso-connection.decider';
import { samlConfigOf } from './sp-values';

/** The public shape of a connection (the SP private key and certificate PEMs stay inside). */
export function toSsoConnection(state: PresentSsoConnection, publicUrl: string): SsoConnection {
  const { settings, idp } = state;
  return {
    __type__: 'SsoConnection',
    __domain__: state.organization_domain,
    __environment__: state.environment,
    id: state.id,
    sp_id: state.sp_id,
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
    update_profile_only_at_creation: settings.update_profile_only_at_creation,
    allow_idp_initiated: settings.allow_idp_initiated,
    inserted_at: state.inserted_at,
    updated_at: state.updated_at,
  };
}
