import {
  configureSsoConnectionRequestSchema,
  createSsoConnection,
  getSpMetadata,
  getSsoConnection,
  listSsoConnections,
  ssoTenantRequestSchema,
  subjects,
  updateSsoConnection,
} from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { PresentSsoConnection } from './domain/sso-connection.decider';
import { ssoConnectionsView } from './projections/sso-connections.projection';
import { configureSsoConnectionHandler, findSsoConnectionHandler, spSettingsHandler } from './sso-connection-rpc.handlers';
import {
  createSsoConnectionHandler,
  getSpMetadataHandler,
  getSsoConnectionHandler,
  listSsoConnectionsHandler,
  updateSsoConnectionHandler,
} from './sso-connection.handlers';
import { findConnection } from './sso-connections.deps';
import type { SsoConnectionsDeps, SsoConnectionsHandlerDeps } from './sso-connections.deps';
import { identityProvidersPublicOnly } from './oidc/relying-party';

/** SSO connections: the aggregate, its read model, the HTTP operations and the service subjects. */
export function registerSsoConnections(services: SsoConnectionsDeps) {
  const { runtime } = services;
  identityProvidersPublicOnly(runtime.config.SESAME_MODE === 'production');
  const view = runtime.projections.register(new AggregateView(ssoConnectionsView, runtime.readModels, runtime.eventStore));
  const deps: SsoConnectionsHandlerDeps = { ...services, view, now: () => new Date() };
  const { router } = runtime;
  router.operation(createSsoConnection, createSsoConnectionHandler(deps));
  router.operation(getSsoConnection, getSsoConnectionHandler(deps));
  router.operation(updateSsoConnection, updateSsoConnectionHandler(deps));
  router.operation(listSsoConnections, listSsoConnectionsHandler(deps));
  router.operation(getSpMetadata, getSpMetadataHandler(deps));
  router.on(subjects.authMethods.sso.find, findSsoConnectionHandler(deps), ssoTenantRequestSchema);
  router.on(subjects.authMethods.sso.spSettings, spSettingsHandler(deps), ssoTenantRequestSchema);
  router.on(subjects.authMethods.sso.configure, configureSsoConnectionHandler(deps), configureSsoConnectionRequestSchema);
  const find = (spId: string): Promise<PresentSsoConnection | null> => findConnection(deps, spId);
  return { view, find };
}
