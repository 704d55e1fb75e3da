import { randomUUID } from 'node:crypto';
import type { Environment, Organization, SpKeyData, SsoConnectionBody } from '@sesame/contracts';
import type { AggregateView, EventMetadata, KeyRing, RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { Organizations } from '../../core/identity/organizations';
import { createKeyAndCertificate } from './crypto/sp-key';
import type {
  PresentSsoConnection,
  SsoConnectionChange,
  SsoConnectionCommand,
  SsoConnectionState,
} from './domain/sso-connection.decider';
import { toSsoConnection } from './domain/sso-connection.resource';
import { spIdOf } from './domain/sp-values';
import { ssoConnectionAggregate } from './sso-connection.aggregates';

export interface SsoConnectionsDeps {
  runtime: ServiceRuntime;
  organizations: Organizations;
  keyRing: KeyRing;
  publicUrl: string;
}

export type SsoConnectionsView = AggregateView<SsoConnectionState, never>;

/** What the SSO connection handlers share. */
export interface SsoConnectionsHandlerDeps extends SsoConnectionsDeps {
  view: SsoConnectionsView;
  now(): Date;
}

/** A command on the connection of stream key `key` (`ssoConnectionKeyOf`, or `ssoConnectionKey` for a new one). */
export const run = (deps: SsoConnectionsHandlerDeps, key: string, command: SsoConnectionCommand, metadata: EventMetadata) =>
  deps.runtime.aggregate(ssoConnectionAggregate).handle(key, command, metadata);

/**
 * The connection of an SP id, from the read model, when it exists. An organization has one; while a
 * deleted organization's connection is still being removed, the newest one is its domain's. Given
 * `organizationId`, only that organization's (or one recorded before connections named theirs, which
 * is its domain's): an organization re-created with the domain of one whose deletion is still being
 * handled does not see the old connection as its own.
 */
export async function findConnection(
  deps: Pick<SsoConnectionsHandlerDeps, 'view'>,
  spId: string,
  organizationId?: string,
): Promise<PresentSsoConnection | null> {
  const filter = { sp_id: spId, ...(organizationId ? { organization_id: { $in: [organizationId, null] } } : {}) };
  const [document] = await deps.view.documents.find(filter, { sort: { inserted_at: -1, _id: 1 }, limit: 1 });
  if (document?.status !== 'present') return null;
  const { _id, _rev, ...connection } = document;
  return connection;
}

export const present = (deps: SsoConnectionsHandlerDeps, state: SsoConnectionState) =>
  toSsoConnection(state as PresentSsoConnection, deps.publicUrl);

/** The organization must exist (identity answers 404 otherwise). */
export const requireOrganization = (
  deps: SsoConnectionsHandlerDeps,
  domain: string,
  environment: Environment,
  context: RequestContext,
) => deps.organizations.get(domain, { correlationId: context.meta.correlationId, environment });

/** A new key and certificate for encrypted assertions, its private key sealed. */
export async function encryptionKey(deps: SsoConnectionsHandlerDeps, spId: string): Promise<SpKeyData> {
  const encryption = await createKeyAndCertificate(`${spId} SAML SP encryption`);
  return { certificate_pem: encryption.certificatePem, encrypted_private_key_pem: deps.keyRing.seal(encryption.privateKeyPem) };
}

/**
 * The change a request asks for: its settings, and an OIDC client secret sealed with the key ring
 * (absent: unchanged; null: removed). The plain secret goes no further than this.
 */
export function changeOf(deps: Pick<SsoConnectionsDeps, 'keyRing'>, body: SsoConnectionBody) {
  const { oidc_client_secret: secret, ...settings } = body;
  const sealed = secret === undefined ? {} : { oidc_client_secret: secret === null ? null : deps.keyRing.seal(secret) };
  return { settings: settings as SsoConnectionChange, ...sealed };
}

/** A new connection of the organization, with its signing and encryption keys. */
export async function createCommand(
  deps: SsoConnectionsHandlerDeps,
  organization: Pick<Organization, 'id' | 'domain'>,
  environment: Environment,
  body: SsoConnectionBody,
): Promise<SsoConnectionCommand> {
  const domain = organization.domain;
  const [key, sp_encryption_key] = await Promise.all([
    createKeyAndCertificate(`${spIdOf(domain, environment)} SAML SP`),
    encryptionKey(deps, spIdOf(domain, environment)),
  ]);
  return {
    type: 'CreateSsoConnection',
    data: {
      id: randomUUID(),
      sp_id: spIdOf(domain, environment),
      organization_id: organization.id,
      organization_domain: domain,
      environment,
      ...changeOf(deps, body),
      sp_key: { certificate_pem: key.certificatePem, encrypted_private_key_pem: deps.keyRing.seal(key.privateKeyPem) },
      sp_encryption_key,
      at: deps.now().toISOString(),
    },
  };
}
