import type { Environment } from '../common/environment.schema';
import type { SsoProviderType, UsersAccessPolicy } from '../entities/sso.schema';

/** The settings of an SSO connection an integrator or IT admin chooses (every one, after defaults). */
export interface SsoConnectionSettingsData {
  active: boolean;
  provider_type: SsoProviderType;
  users_access_policy: UsersAccessPolicy;
  number_users_provisioning_limit: number | null;
  metadata: string | null;
  update_profile_only_at_creation: boolean;
  allow_idp_initiated: boolean;
  onboarding: Record<string, unknown> | null;
}

/** Read from the IdP metadata when it was given. */
export interface IdpSettingsData {
  entity_id: string;
  sso_url: string;
  slo_url: string | null;
  certificates: { pem: string; fingerprint_sha256: string; not_before: string; not_after: string }[];
}

/** Our SP signing key for one connection (AuthnRequest, LogoutRequest): private key encrypted at rest. */
export interface SpKeyData {
  certificate_pem: string;
  encrypted_private_key_pem: string;
}

export type SsoConnectionEvent =
  | {
      type: 'SsoConnectionCreated';
      data: {
        id: string;
        sp_id: string;
        organization_domain: string;
        environment: Environment;
        settings: SsoConnectionSettingsData;
        idp: IdpSettingsData | null;
        sp_key: SpKeyData;
        at: string;
      };
    }
  | {
      type: 'SsoConnectionUpdated';
      data: { sp_id: string; settings: SsoConnectionSettingsData; idp: IdpSettingsData | null; at: string };
    };
