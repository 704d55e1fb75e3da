import type { Environment } from '../common/environment.schema';
import type { Tenant } from './tenant';
import type { SsoConnectionType, SsoProviderType, UsersAccessPolicy } from '../entities/sso.schema';

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
  /** Absent from settings recorded before OIDC connections: `saml`. */
  type?: SsoConnectionType;
  /** OIDC connections: the issuer (discovery document), our client id at the IdP, the scopes asked for. */
  oidc_issuer?: string | null;
  oidc_client_id?: string | null;
  oidc_scopes?: string[] | null;
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
        /**
         * The organization it belongs to (stream `ssoConnection-<environment>:<organization_id>`);
         * absent from connections created before, whose stream is `ssoConnection-<sp_id>`.
         */
        organization_id?: string;
        organization_domain: string;
        environment: Environment;
        settings: SsoConnectionSettingsData;
        idp: IdpSettingsData | null;
        sp_key: SpKeyData;
        /** Our SP encryption key (EncryptedAssertion); connections created before it have none. */
        sp_encryption_key?: SpKeyData;
        /** OIDC: the client secret, encrypted with the key ring (never published). */
        oidc_client_secret?: string | null;
        at: string;
      };
    }
  | {
      type: 'SsoConnectionUpdated';
      data: {
        sp_id: string;
        /** As on its creation. */
        organization_id?: string;
        /** For webhooks; absent from updates recorded before they were added. */
        organization_domain?: string;
        environment?: Environment;
        settings: SsoConnectionSettingsData;
        idp: IdpSettingsData | null;
        /** Given to a connection created before encrypted assertions were supported, at its first update. */
        sp_encryption_key?: SpKeyData;
        /** OIDC: a new client secret, encrypted with the key ring (null: removed; absent: unchanged). */
        oidc_client_secret?: string | null;
        at: string;
      };
    }
  /** Its organization was deleted: the stream starts over, a connection created later is a new one. */
  | {
      type: 'SsoConnectionDeleted';
      data: {
        sp_id: string;
        /** As on its creation. */
        organization_id?: string;
        organization_domain: string;
        environment: Environment;
        reason: 'organization_deleted';
        at: string;
      };
    };

/** Who signed in through a SAML assertion (kept for single logout). */
export interface SamlSubjectData {
  name_id: string;
  name_id_format: string | null;
  session_index: string | null;
  email: string | null;
  user_id: string | null;
}

/**
 * Where a sign-in happened, copied from its challenge onto its outcome for webhooks
 * (`sso.login.succeeded`, `sso.login.failed`); absent from outcomes recorded before they were added.
 */
export interface SsoSignInTenant extends Partial<Tenant> {
  sso_connection_id?: string;
  /** A test sign-in of the onboarding page (not published). */
  test?: boolean;
}

/**
 * One SAML sign-in (stream `ssoChallenge-<request_id>`): issued by the challenge endpoint
 * (SP-initiated) or directly completed by an IdP-initiated response; completed once.
 */
export type SsoChallengeEvent =
  | {
      type: 'SsoChallengeIssued';
      data: {
        request_id: string;
        sp_id: string;
        sso_connection_id: string;
        /** Its connection's organization; absent when the connection (or the challenge) was recorded before connections named it. */
        organization_id?: string;
        organization_domain: string;
        environment: Environment;
        redirect_uri: string;
        client_id: string | null;
        expired_at: string;
        at: string;
        /** PKCE S256 challenge passed on to the authorization code. */
        code_challenge?: string | null;
        /** A test sign-in of the onboarding page: no user is touched, no code is issued, the attributes are kept. */
        test?: boolean;
        /**
         * An OIDC sign-in: the `state` and `nonce` sent to the identity provider and our PKCE verifier
         * (encrypted with the key ring); absent from SAML challenges.
         */
        oidc?: { state: string; nonce: string; code_verifier: string };
      };
    }
  | {
      type: 'SsoChallengeCompleted';
      data: SsoSignInTenant & {
        request_id: string;
        assertion_id: string;
        subject: SamlSubjectData;
        at: string;
        /** Test sign-ins only: what the IdP sent. */
        attributes?: Record<string, string[]>;
      };
    }
  /** `reason` is a refusal code (`signature_invalid`, `challenge_expired`...), never a part of the response. */
  | { type: 'SsoChallengeFailed'; data: SsoSignInTenant & { request_id: string; reason: string; at: string } }
  /** SP-initiated single logout started: the browser goes to the IdP, then back to `redirect_uri`. */
  | { type: 'SsoLogoutRequested'; data: { request_id: string; redirect_uri: string; at: string } }
  /** The SAML session of this sign-in ended (our logout confirmed by the IdP, or the IdP's logout request). */
  | { type: 'SsoSessionEnded'; data: { request_id: string; initiated_by: 'sp' | 'idp'; at: string } };

/** One-time use of an assertion id, across replicas (stream `samlAssertion-<sha256(sp_id, assertion id)>`, appended once). */
export type SamlAssertionEvent = {
  type: 'SamlAssertionConsumed';
  data: { sp_id: string; assertion_id: string; not_on_or_after: string; at: string };
};
