import { catalogueError } from '@sesame/contracts';
import type {
  OperationInput,
  createSsoConnection,
  getSpMetadata,
  getSsoConnection,
  listSsoConnections,
  updateSsoConnection,
} from '@sesame/contracts';
import { created, environmentOf, failure, findPage, ok } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { spIdOf, tenantOfSpId } from './domain/sp-values';
import { ssoConnectionKey, ssoConnectionKeyOf } from './domain/sso-connection.decider';
import { spMetadataXml } from './saml/service-provider';
import {
  changeOf,
  createCommand,
  encryptionKey,
  findConnection,
  present,
  requireOrganization,
  run,
} from './sso-connections.deps';
import type { SsoConnectionsHandlerDeps } from './sso-connections.deps';

export function createSsoConnectionHandler(deps: SsoConnectionsHandlerDeps) {
  return async ({ params, body }: OperationInput<typeof createSsoConnection>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const organization = await requireOrganization(deps, params.org_domain, environment, context);
    const spId = spIdOf(params.org_domain, environment);
    if (await findConnection(deps, spId, organization.id)) return failure(catalogueError('sso_connection_already_exists'));
    const command = await createCommand(deps, organization, environment, body);
    const key = ssoConnectionKey(environment, organization.id);
    const { state } = await run(deps, key, command, deps.runtime.metadata(context));
    return created(present(deps, state));
  };
}

export function getSsoConnectionHandler(deps: SsoConnectionsHandlerDeps) {
  return async ({ params }: OperationInput<typeof getSsoConnection>, context: RequestContext) => {
    const connection = await findConnection(deps, spIdOf(params.org_domain, environmentOf(context.meta)));
    return connection ? ok(present(deps, connection)) : failure(catalogueError('resource_not_found'));
  };
}

export function updateSsoConnectionHandler(deps: SsoConnectionsHandlerDeps) {
  return async ({ params, body }: OperationInput<typeof updateSsoConnection>, context: RequestContext) => {
    const spId = spIdOf(params.org_domain, environmentOf(context.meta));
    const current = await findConnection(deps, spId);
    if (!current) return failure(catalogueError('resource_not_found'));
    // A connection created before encrypted assertions were supported gets its key at its next update.
    const sp_encryption_key = current.sp_encryption_key === null ? await encryptionKey(deps, spId) : undefined;
    const data = { ...changeOf(deps, body), ...(sp_encryption_key ? { sp_encryption_key } : {}), at: deps.now().toISOString() };
    const command = { type: 'UpdateSsoConnection' as const, data };
    const { state } = await run(deps, ssoConnectionKeyOf(current), command, deps.runtime.metadata(context));
    return ok(present(deps, state));
  };
}

export function listSsoConnectionsHandler(deps: SsoConnectionsHandlerDeps) {
  return async ({ query }: OperationInput<typeof listSsoConnections>, context: RequestContext) => {
    const filter = { environment: environmentOf(context.meta) };
    const sort = { inserted_at: 1, _id: 1 } as const;
    return ok(await findPage(deps.view.documents, { filter, sort, query }, (document) => present(deps, document)));
  };
}

export function getSpMetadataHandler(deps: SsoConnectionsHandlerDeps) {
  return async ({ params }: OperationInput<typeof getSpMetadata>) => {
    const connection = tenantOfSpId(params.sp_id) ? await findConnection(deps, params.sp_id) : null;
    if (!connection) return failure(catalogueError('resource_not_found'));
    return {
      ...ok(spMetadataXml(connection, deps.publicUrl)),
      headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8' },
    };
  };
}
