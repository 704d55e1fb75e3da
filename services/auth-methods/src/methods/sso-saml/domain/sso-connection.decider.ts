import { catalogueError, fieldError } from '@sesame/contracts';
import type {
  Environment,
  IdpSettingsData,
  SsoConnectionBody,
  SpKeyData,
  SsoConnectionEvent,
  SsoConnectionSettings,
  SsoConnectionSettingsData,
} from '@sesame/contracts';
import { fail, ownedByDeletedOrganization } from '@sesame/platform';
import type { Decider, OrganizationDeletion } from '@sesame/platform';
import { parseIdpMetadata } from '../metadata/idp-metadata';

/**
 * The SAML connection of one organization in one environment: stream
 * `ssoConnection-<environment>:<organization_id>` (`ssoConnectionKeyOf`), or `ssoConnection-<sp_id>` for
 * a connection created before connections were named by their organization.
 */
export type SsoConnectionState =
  | { status: 'absent' }
  | {
      status: 'present';
      id: string;
      sp_id: string;
      /** Null for a connection created before connections named their organization. */
      organization_id: string | null;
      organization_domain: string;
      environment: Environment;
      settings: SsoConnectionSettingsData;
      idp: IdpSettingsData | null;
      sp_key: SpKeyData;
      /** Decrypts assertions an IdP encrypts for us; null for connections created before encryption was supported. */
      sp_encryption_key: SpKeyData | null;
      /** OIDC: the client secret, encrypted with the key ring; null when none was given. */
      oidc_client_secret: string | null;
      inserted_at: string;
      updated_at: string;
    };
export type PresentSsoConnection = Extract<SsoConnectionState, { status: 'present' }>;

/**
 * What an integrator or IT admin sets: the settings, and for OIDC connections the issuer, client id
 * and scopes (the client secret travels apart, already encrypted, as `oidc_client_secret`).
 */
export type SsoConnectionChange = SsoConnectionSettings &
  Omit<SsoConnectionBody, keyof SsoConnectionSettings | 'oidc_client_secret'>;

export type SsoConnectionCommand =
  | {
      type: 'CreateSsoConnection';
      data: {
        id: string;
        sp_id: string;
        organization_id: string;
        organization_domain: string;
        environment: Environment;
        settings: SsoConnectionChange;
        sp_key: SpKeyData;
        sp_encryption_key: SpKeyData;
        /** Encrypted with the key ring; absent when not given. */
        oidc_client_secret?: string | null;
        at: string;
      };
    }
  | {
      type: 'UpdateSsoConnection';
      /** `sp_encryption_key`: a new key, recorded only when the connection has none yet (created before encryption). */
      data: { settings: SsoConnectionChange; sp_encryption_key?: SpKeyData; oidc_client_secret?: string | null; at: string };
    }
  /** Its organization was deleted; nothing to do without a connection or for another organization's (of the same domain, since). */
  | { type: 'DeleteSsoConnection'; data: OrganizationDeletion };

export const defaultSettings: SsoConnectionSettingsData = {
  active: true,
  provider_type: 'custom_saml',
  users_access_policy: 'provision_new_users',
  number_users_provisioning_limit: null,
  metadata: null,
  update_profile_only_at_creation: false,
  allow_idp_initiated: false,
  onboarding: null,
};

/** The scopes an OIDC connection asks for when none are given. */
export const defaultOidcScopes = ['openid', 'email', 'profile'];

const oidcFields = ['oidc_issuer', 'oidc_client_id', 'oidc_scopes'] as const;

/** The settings after applying the given fields (absent ones keep their value); OIDC scopes always hold `openid`. */
function merge(current: SsoConnectionSettingsData, given: SsoConnectionChange): SsoConnectionSettingsData {
  const next = { ...current };
  for (const [key, value] of Object.entries(given)) if (value !== undefined) Object.assign(next, { [key]: value });
  if (given.oidc_scopes) next.oidc_scopes = [...new Set(['openid', ...given.oidc_scopes])];
  if (next.type === 'oidc' && !next.oidc_scopes) next.oidc_scopes = defaultOidcScopes;
  return next;
}

/**
 * SAML metadata on an OIDC connection, or OIDC fields on a SAML one, is refused (422 naming the
 * field); so is a production connection's issuer without TLS (its keys and tokens would travel in clear).
 */
function checkProtocolFields(
  merged: SsoConnectionSettingsData,
  given: SsoConnectionChange,
  secretGiven: boolean,
  environment: Environment,
) {
  if (merged.type === 'oidc') {
    if (given.metadata) fail(fieldError('metadata', 'is only for SAML connections (type saml)'));
    if (environment === 'production' && given.oidc_issuer && !given.oidc_issuer.startsWith('https://'))
      fail(fieldError('oidc_issuer', 'must be an https URL in production'));
    return;
  }
  const oidcField = oidcFields.find((field) => given[field] !== undefined && given[field] !== null);
  if (oidcField) fail(fieldError(oidcField, 'is only for OIDC connections (type oidc)'));
  if (secretGiven) fail(fieldError('oidc_client_secret', 'is only for OIDC connections (type oidc)'));
}

/** The IdP settings for new metadata (null metadata: none), or the 422 explaining what is wrong with it. */
function idpOf(metadata: string | null, at: string): IdpSettingsData | null {
  if (metadata === null || metadata.trim() === '') return null;
  const parsed = parseIdpMetadata(metadata, new Date(at));
  if (!parsed.ok) fail(fieldError('metadata', parsed.problem));
  return parsed.idp;
}

/** The stream key of a connection: its organization's in its environment, or its SP id when recorded before connections named their organization. */
export const ssoConnectionKeyOf = (connection: Pick<PresentSsoConnection, 'organization_id' | 'environment' | 'sp_id'>) =>
  connection.organization_id ? ssoConnectionKey(connection.environment, connection.organization_id) : connection.sp_id;

export const ssoConnectionKey = (environment: Environment, organizationId: string) => `${environment}:${organizationId}`;

/** The organization a connection names (none when recorded before connections named theirs), for its challenges. */
export const ownerOf = ({ organization_id }: Pick<PresentSsoConnection, 'organization_id'>) =>
  organization_id ? { organization_id } : {};

/** What the events of a connection name it by. */
const namesOf = ({ sp_id, organization_id, organization_domain, environment }: PresentSsoConnection) => ({
  sp_id,
  ...ownerOf({ organization_id }),
  organization_domain,
  environment,
});

function create(command: Extract<SsoConnectionCommand, { type: 'CreateSsoConnection' }>, state: SsoConnectionState) {
  if (state.status === 'present') fail(catalogueError('sso_connection_already_exists'));
  const { settings, at, oidc_client_secret, ...identity } = command.data;
  const merged = merge(defaultSettings, settings);
  checkProtocolFields(merged, settings, typeof oidc_client_secret === 'string', identity.environment);
  const secret = oidc_client_secret ? { oidc_client_secret } : {};
  return [
    {
      type: 'SsoConnectionCreated' as const,
      data: { ...identity, settings: merged, idp: idpOf(merged.metadata, at), ...secret, at },
    },
  ];
}

function update(command: Extract<SsoConnectionCommand, { type: 'UpdateSsoConnection' }>, state: SsoConnectionState) {
  if (state.status === 'absent') fail(catalogueError('resource_not_found'));
  const { settings, at, oidc_client_secret } = command.data;
  const merged = merge(state.settings, settings);
  checkProtocolFields(merged, settings, typeof oidc_client_secret === 'string', state.environment);
  const newEncryptionKey = state.sp_encryption_key === null ? command.data.sp_encryption_key : undefined;
  // A sealed secret differs at each sealing: any given secret is a change.
  const secretChange = oidc_client_secret !== undefined && !(oidc_client_secret === null && state.oidc_client_secret === null);
  if (JSON.stringify(merged) === JSON.stringify(state.settings) && !newEncryptionKey && !secretChange) return [];
  const idp = merged.metadata === state.settings.metadata ? state.idp : idpOf(merged.metadata, at);
  const data = {
    ...namesOf(state),
    settings: merged,
    idp,
    ...(newEncryptionKey ? { sp_encryption_key: newEncryptionKey } : {}),
    ...(secretChange ? { oidc_client_secret } : {}),
    at,
  };
  return [{ type: 'SsoConnectionUpdated' as const, data }];
}

export const ssoConnectionDecider: Decider<SsoConnectionState, SsoConnectionCommand, SsoConnectionEvent> = {
  initialState: () => ({ status: 'absent' }),
  tenant: (state) =>
    state.status === 'present' && state.organization_id
      ? { organization_id: state.organization_id, environment: state.environment }
      : undefined,
  decide(command, state) {
    switch (command.type) {
      case 'CreateSsoConnection':
        return create(command, state);
      case 'UpdateSsoConnection':
        return update(command, state);
      case 'DeleteSsoConnection': {
        if (state.status === 'absent' || !ownedByDeletedOrganization(state.organization_id, command.data)) return [];
        const { reason, at } = command.data;
        return [{ type: 'SsoConnectionDeleted', data: { ...namesOf(state), reason, at } }];
      }
      default: {
        const unknown: never = command;
        throw new Error(`Unknown command ${JSON.stringify(unknown)}`);
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'SsoConnectionCreated': {
        const { at, ...data } = event.data;
        return {
          status: 'present',
          ...data,
          organization_id: data.organization_id ?? null,
          sp_encryption_key: data.sp_encryption_key ?? null,
          oidc_client_secret: data.oidc_client_secret ?? null,
          inserted_at: at,
          updated_at: at,
        };
      }
      case 'SsoConnectionUpdated':
        if (state.status === 'absent') return state;
        return {
          ...state,
          settings: event.data.settings,
          idp: event.data.idp,
          sp_encryption_key: event.data.sp_encryption_key ?? state.sp_encryption_key,
          oidc_client_secret:
            event.data.oidc_client_secret === undefined ? state.oidc_client_secret : event.data.oidc_client_secret,
          updated_at: event.data.at,
        };
      case 'SsoConnectionDeleted':
        return { status: 'absent' };
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  },
};
