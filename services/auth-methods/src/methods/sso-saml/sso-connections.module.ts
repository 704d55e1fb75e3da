import { randomUUID } from 'node:crypto';
import {
  catalogueError,
  configureSsoConnectionRequestSchema,
  createSsoConnection,
  getSpMetadata,
  getSsoConnection,
  listSsoConnections,
  paginate,
  resolvePage,
  ssoTenantRequestSchema,
  subjects,
  updateSsoConnection,
} from '@sesame/contracts';
import type { Environment, SpKeyData, SsoConnectionSettings } from '@sesame/contracts';
import { AggregateView, created, failure, fail, handleCommand, ok } from '@sesame/platform';
import type { EventMetadata, KeyRing, RequestContext, ServiceRuntime } from '@sesame/platform';
import type { Organizations } from '../../core/identity/organizations';
import { createKeyAndCertificate } from './crypto/sp-key';
import { ssoConnectionDecider } from './domain/sso-connection.decider';
import type { PresentSsoConnection, SsoConnectionCommand, SsoConnectionState } from './domain/sso-connection.decider';
import { toSsoConnection } from './domain/sso-connection.resource';
import { samlConfigOf, spIdOf, tenantOfSpId } from './domain/sp-values';
import { ssoConnectionStream, ssoConnectionsView } from './projections/sso-connections.projection';
import { spMetadataXml } from './saml/service-provider';

export interface SsoConnectionsDeps {
  runtime: ServiceRuntime;
  organizations: Organizations;
  keyRing: KeyRing;
  publicUrl: string;
}

export type SsoConnectionsView = AggregateView<SsoConnectionState, never>;

/** SSO connections: the aggregate, its read model, the HTTP operations and the service subjects. */
export function registerSsoConnections(deps: SsoConnectionsDeps) {
  const { runtime, publicUrl } = deps;
  const view = runtime.projections.register(new AggregateView(ssoConnectionsView, runtime.readModels, runtime.eventStore));
  const run = (spId: string, command: SsoConnectionCommand, metadata: EventMetadata) =>
    handleCommand(runtime.commandDeps<SsoConnectionState>(), ssoConnectionDecider, ssoConnectionStream(spId), command, metadata);
  const find = async (spId: string): Promise<PresentSsoConnection | null> => {
    const document = await view.documents.get(spId);
    return document?.status === 'present' ? document : null;
  };
  const present = (state: SsoConnectionState) => toSsoConnection(state as PresentSsoConnection, publicUrl);
  const at = () => new Date().toISOString();

  /** The organization must exist (identity answers 404 otherwise). */
  const requireOrganization = (domain: string, environment: Environment, context: RequestContext) =>
    deps.organizations.get(domain, { correlationId: context.meta.correlationId, environment });
  const encryptionKey = async (spId: string): Promise<SpKeyData> => {
    const encryption = await createKeyAndCertificate(`${spId} SAML SP encryption`);
    return { certificate_pem: encryption.certificatePem, encrypted_private_key_pem: deps.keyRing.seal(encryption.privateKeyPem) };
  };
  const createCommand = async (domain: string, environment: Environment, settings: SsoConnectionSettings) => {
    const [key, sp_encryption_key] = await Promise.all([
      createKeyAndCertificate(`${spIdOf(domain, environment)} SAML SP`),
      encryptionKey(spIdOf(domain, environment)),
    ]);
    return {
      type: 'CreateSsoConnection' as const,
      data: {
        id: randomUUID(),
        sp_id: spIdOf(domain, environment),
        organization_domain: domain,
        environment,
        settings,
        sp_key: { certificate_pem: key.certificatePem, encrypted_private_key_pem: deps.keyRing.seal(key.privateKeyPem) },
        sp_encryption_key,
        at: at(),
      },
    };
  };
  const environmentOf = (context: RequestContext): Environment => {
    if (!context.meta.environment) fail(catalogueError('unauthorized'));
    return context.meta.environment;
  };

  runtime.router.operation(createSsoConnection, async ({ params, body }, context) => {
    const environment = environmentOf(context);
    await requireOrganization(params.org_domain, environment, context);
    const spId = spIdOf(params.org_domain, environment);
    if (await find(spId)) return failure(catalogueError('sso_connection_already_exists'));
    const { state } = await run(spId, await createCommand(params.org_domain, environment, body), runtime.metadata(context));
    return created(present(state));
  });
  runtime.router.operation(getSsoConnection, async ({ params }, context) => {
    const connection = await find(spIdOf(params.org_domain, environmentOf(context)));
    return connection ? ok(present(connection)) : failure(catalogueError('resource_not_found'));
  });
  runtime.router.operation(updateSsoConnection, async ({ params, body }, context) => {
    const spId = spIdOf(params.org_domain, environmentOf(context));
    // A connection created before encrypted assertions were supported gets its key at its next update.
    const current = await find(spId);
    const sp_encryption_key = current && current.sp_encryption_key === null ? await encryptionKey(spId) : undefined;
    const { state } = await run(
      spId,
      { type: 'UpdateSsoConnection', data: { settings: body, ...(sp_encryption_key ? { sp_encryption_key } : {}), at: at() } },
      runtime.metadata(context),
    );
    return ok(present(state));
  });
  runtime.router.operation(listSsoConnections, async ({ query }, context) => {
    const filter = { environment: environmentOf(context) };
    const page = resolvePage(query);
    const [documents, total] = await Promise.all([
      view.documents.find(filter, { sort: { inserted_at: 1, _id: 1 }, skip: page.skip, limit: page.perPage }),
      view.documents.count(filter),
    ]);
    return ok(paginate(documents.map(present), total, page));
  });
  runtime.router.operation(getSpMetadata, async ({ params }) => {
    const connection = tenantOfSpId(params.sp_id) ? await find(params.sp_id) : null;
    if (!connection) return failure(catalogueError('resource_not_found'));
    return {
      ...ok(spMetadataXml(connection, publicUrl)),
      headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8' },
    };
  });

  runtime.router.on(
    subjects.authMethods.sso.find,
    async (input) => {
      const connection = await find(spIdOf(input.organization_domain, input.environment));
      return ok({ sso_connection: connection ? present(connection) : null });
    },
    ssoTenantRequestSchema,
  );
  runtime.router.on(
    subjects.authMethods.sso.spSettings,
    async (input) => {
      const spId = spIdOf(input.organization_domain, input.environment);
      const connection = await find(spId);
      return ok({ sp_id: spId, saml_config: samlConfigOf(publicUrl, spId, connection?.idp?.entity_id ?? null) });
    },
    ssoTenantRequestSchema,
  );
  runtime.router.on(
    subjects.authMethods.sso.configure,
    async (input, context) => {
      const { organization_domain: domain, environment, ...settings } = input;
      await requireOrganization(domain, environment, context);
      const spId = spIdOf(domain, environment);
      const metadata = { ...runtime.metadata(context), environment };
      const command = (await find(spId))
        ? { type: 'UpdateSsoConnection' as const, data: { settings, at: at() } }
        : await createCommand(domain, environment, settings);
      const { state } = await run(spId, command, metadata);
      return ok(present(state));
    },
    configureSsoConnectionRequestSchema,
  );
  return { view, find };
}
