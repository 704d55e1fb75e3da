import { randomUUID } from 'node:crypto';
import { catalogueError } from '@sesame/contracts';
import type {
  DirectorySyncProvider,
  Environment,
  OperationInput,
  createDirectorySync,
  updateDirectorySync,
} from '@sesame/contracts';
import { created, fail, hashSecret, ok, randomSecret } from '@sesame/platform';
import type { CommandResult, RequestContext, Step } from '@sesame/platform';
import { environmentOf } from '../../tenancy';
import { toDirectorySync } from '../directory-sync.resource';
import type { DirectorySyncsDeps } from '../directory-syncs.deps';
import type { DirectorySyncCommand, DirectorySyncState, IssuedToken } from '../domain/directory-sync.decider';
import { directorySyncKey } from '../projections/directory-syncs.projection';

/** A new bearer token for a SCIM client: the value goes out once, only its hash is kept. */
export function issueToken(): { value: string; token: IssuedToken } {
  const value = `scim_${randomSecret(32)}`;
  return { value, token: { hash: hashSecret(value), hint: value.slice(-4), provider_key: `dsk_${randomSecret(12)}` } };
}

const directoryOf = (result: CommandResult<DirectorySyncState>) => {
  if (result.state.status !== 'active') throw new Error('a directory sync command left no directory sync');
  return result.state.directory_sync;
};

/**
 * Creates the directory sync of an organization and environment: check (none exists yet) →
 * ask identity whether the organization exists (404 otherwise) → commit. A second directory sync
 * is refused before identity is asked. Answers it with its token's value.
 */
export async function createDirectory(
  deps: DirectorySyncsDeps,
  tenant: { organization_domain: string; environment: Environment },
  settings: { provider_type: DirectorySyncProvider; active: boolean },
  context: RequestContext,
) {
  const { organization_domain, environment } = tenant;
  const { value, token } = issueToken();
  const step: Step<DirectorySyncState, DirectorySyncCommand, null> = {
    check: ({ state }) => {
      if (state.status !== 'none') fail(catalogueError('directory_sync_already_exists'));
      return null;
    },
    act: async () => {
      const organizationId = await deps.identity.organizationIdOf(organization_domain, environment, context.meta.correlationId);
      if (!organizationId) fail(catalogueError('resource_not_found'));
      const at = deps.now().toISOString();
      const organization = { organization_id: organizationId, organization_domain };
      const data = { id: randomUUID(), ...organization, environment, ...settings, token, at };
      return { type: 'CreateDirectorySync', data };
    },
  };
  const key = directorySyncKey(environment, organization_domain);
  const result = await deps.directorySyncs.execute(key, step, { ...deps.metadata(context), environment });
  return toDirectorySync(deps.config, directoryOf(result), value);
}

/** Changes a directory sync (404 when there is none), a new token's value in the answer when `rotate`. */
export async function changeDirectory(
  deps: DirectorySyncsDeps,
  tenant: { organization_domain: string; environment: Environment },
  changes: { provider_type?: DirectorySyncProvider; active?: boolean; rotate: boolean },
  context: RequestContext,
) {
  const { rotate, ...fields } = changes;
  const issued = rotate ? issueToken() : null;
  const command: DirectorySyncCommand = {
    type: 'UpdateDirectorySync',
    data: { ...fields, ...(issued ? { token: issued.token } : {}), at: deps.now().toISOString() },
  };
  const key = directorySyncKey(tenant.environment, tenant.organization_domain);
  const result = await deps.directorySyncs.handle(key, command, { ...deps.metadata(context), environment: tenant.environment });
  return toDirectorySync(deps.config, directoryOf(result), issued?.value ?? null);
}

export function createDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params, body }: OperationInput<typeof createDirectorySync>, context: RequestContext) => {
    const tenant = { organization_domain: params.org_domain, environment: environmentOf(context.meta) };
    return created(await createDirectory(deps, tenant, body, context));
  };
}

export function updateDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params, body }: OperationInput<typeof updateDirectorySync>, context: RequestContext) => {
    const tenant = { organization_domain: params.org_domain, environment: environmentOf(context.meta) };
    const { rotate_auth_secret_token, ...changes } = body;
    return ok(await changeDirectory(deps, tenant, { ...changes, rotate: rotate_auth_secret_token }, context));
  };
}
