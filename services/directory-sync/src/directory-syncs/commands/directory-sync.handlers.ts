import { randomUUID } from 'node:crypto';
import { catalogueError } from '@sesame/contracts';
import type { OperationInput, createDirectorySync, updateDirectorySync } from '@sesame/contracts';
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
 * is refused before identity is asked.
 */
export function createDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params, body }: OperationInput<typeof createDirectorySync>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const { identity } = deps;
    const { value, token } = issueToken();
    const step: Step<DirectorySyncState, DirectorySyncCommand, null> = {
      check: ({ state }) => {
        if (state.status !== 'none') fail(catalogueError('directory_sync_already_exists'));
        return null;
      },
      act: async () => {
        const organizationId = await identity.organizationIdOf(params.org_domain, environment, context.meta.correlationId);
        if (!organizationId) fail(catalogueError('resource_not_found'));
        const at = deps.now().toISOString();
        const organization = { organization_id: organizationId, organization_domain: params.org_domain };
        const data = { id: randomUUID(), ...organization, environment, ...body, token, at };
        return { type: 'CreateDirectorySync', data };
      },
    };
    const key = directorySyncKey(environment, params.org_domain);
    const result = await deps.directorySyncs.execute(key, step, deps.metadata(context));
    return created(toDirectorySync(deps.config, directoryOf(result), value));
  };
}

export function updateDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params, body }: OperationInput<typeof updateDirectorySync>, context: RequestContext) => {
    const environment = environmentOf(context.meta);
    const { rotate_auth_secret_token, ...changes } = body;
    const issued = rotate_auth_secret_token ? issueToken() : null;
    const command: DirectorySyncCommand = {
      type: 'UpdateDirectorySync',
      data: { ...changes, ...(issued ? { token: issued.token } : {}), at: deps.now().toISOString() },
    };
    const key = directorySyncKey(environment, params.org_domain);
    const result = await deps.directorySyncs.handle(key, command, deps.metadata(context));
    return ok(toDirectorySync(deps.config, directoryOf(result), issued?.value ?? null));
  };
}
