import { randomUUID } from 'node:crypto';
import { catalogueError, createDirectorySync, getDirectorySync, updateDirectorySync } from '@sesame/contracts';
import type { DirectorySync, DirectorySyncData, DirectorySyncEvent, Environment, RpcMeta } from '@sesame/contracts';
import { AggregateView, created, fail, handleCommand, hashSecret, ok, randomSecret } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { scimBaseUrl } from '../config';
import type { DirectorySyncConfig } from '../config';
import type { IdentityClient } from '../identity-client';
import { directorySyncDecider } from './domain/directory-sync.decider';
import type { DirectorySyncCommand, DirectorySyncState, IssuedToken } from './domain/directory-sync.decider';
import { directorySyncKey, directorySyncStream, directorySyncsView } from './projections/directory-syncs.projection';

export type DirectorySyncsView = AggregateView<DirectorySyncState, DirectorySyncEvent>;

/** A new bearer token for a SCIM client: the value goes out once, only its hash is kept. */
export function issueToken(): { value: string; token: IssuedToken } {
  const value = `scim_${randomSecret(32)}`;
  return { value, token: { hash: hashSecret(value), hint: value.slice(-4), provider_key: `dsk_${randomSecret(12)}` } };
}

function environmentOf(meta: RpcMeta): Environment {
  if (!meta.environment) fail(catalogueError('unauthorized'));
  return meta.environment;
}

/** Directory syncs: one aggregate per organization and environment, the three HTTP operations. */
export function registerDirectorySyncs(
  runtime: ServiceRuntime,
  config: DirectorySyncConfig,
  identity: IdentityClient,
): DirectorySyncsView {
  const view = runtime.projections.register(new AggregateView(directorySyncsView, runtime.readModels, runtime.eventStore));
  const toResource = (directory: DirectorySyncData, value: string | null = null): DirectorySync => ({
    __type__: 'DirectorySync',
    __domain__: directory.organization_domain,
    __environment__: directory.environment,
    id: directory.id,
    active: directory.active,
    provider_type: directory.provider_type,
    auth_secret_token: { hint: directory.token.hint, provider_key: directory.token.provider_key, value },
    scim_base_url: scimBaseUrl(config, directory.id),
    inserted_at: directory.inserted_at,
    updated_at: directory.updated_at,
  });
  const run = async (environment: Environment, domain: string, command: DirectorySyncCommand, context: RequestContext) => {
    const { state } = await handleCommand(
      runtime.commandDeps<DirectorySyncState>(),
      directorySyncDecider,
      directorySyncStream(environment, domain),
      command,
      runtime.metadata(context),
    );
    if (state.status !== 'active') throw new Error('a directory sync command left no directory sync');
    return state.directory_sync;
  };
  const at = () => new Date().toISOString();

  runtime.router.operation(getDirectorySync, async ({ params }, context) => {
    const environment = environmentOf(context.meta);
    const state = await handleRead(view, environment, params.org_domain);
    return ok(toResource(state));
  });
  runtime.router.operation(createDirectorySync, async ({ params, body }, context) => {
    const environment = environmentOf(context.meta);
    if (!(await identity.organizationExists(params.org_domain, environment, context.meta.correlationId)))
      fail(catalogueError('resource_not_found'));
    const { value, token } = issueToken();
    const command: DirectorySyncCommand = {
      type: 'CreateDirectorySync',
      data: { id: randomUUID(), organization_domain: params.org_domain, environment, ...body, token, at: at() },
    };
    return created(toResource(await run(environment, params.org_domain, command, context), value));
  });
  runtime.router.operation(updateDirectorySync, async ({ params, body }, context) => {
    const environment = environmentOf(context.meta);
    const { rotate_auth_secret_token, ...changes } = body;
    const issued = rotate_auth_secret_token ? issueToken() : null;
    const command: DirectorySyncCommand = {
      type: 'UpdateDirectorySync',
      data: { ...changes, ...(issued ? { token: issued.token } : {}), at: at() },
    };
    return ok(toResource(await run(environment, params.org_domain, command, context), issued?.value ?? null));
  });
  return view;
}

async function handleRead(view: DirectorySyncsView, environment: Environment, domain: string): Promise<DirectorySyncData> {
  const document = await view.documents.get(directorySyncKey(environment, domain));
  if (!document || document.status !== 'active') fail(catalogueError('resource_not_found'));
  return document.directory_sync;
}
