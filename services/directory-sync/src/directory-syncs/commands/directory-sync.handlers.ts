import { randomUUID } from 'node:crypto';
import type { DirectorySyncProvider, OperationInput, createDirectorySync, updateDirectorySync } from '@sesame/contracts';
import { created, hashSecret, ok, randomSecret } from '@sesame/platform';
import type { CommandResult, RequestContext } from '@sesame/platform';
import { environmentOf } from '../../tenancy';
import { toDirectorySync } from '../directory-sync.resource';
import { directoryOwner, directorySyncOf } from '../directory-sync-owner';
import type { DirectoryOwner } from '../directory-sync-owner';
import type { DirectorySyncsDeps } from '../directory-syncs.deps';
import type { DirectorySyncCommand, DirectorySyncState, IssuedToken } from '../domain/directory-sync.decider';

/** A new bearer token for a SCIM client: the value goes out once, only its hash is kept. */
export function issueToken(): { value: string; token: IssuedToken } {
  const value = `scim_${randomSecret(32)}`;
  return { value, token: { hash: hashSecret(value), hint: value.slice(-4), provider_key: `dsk_${randomSecret(12)}` } };
}

const directoryOf = (result: CommandResult<DirectorySyncState>) => {
  if (result.state.status !== 'active') throw new Error('a directory sync command left no directory sync');
  return result.state.directory_sync;
};

/** The organization's directory sync aggregate and where it is (`directorySyncOf`), read from its streams. */
const loadDirectory = (deps: DirectorySyncsDeps, owner: DirectoryOwner) =>
  directorySyncOf(
    owner,
    (key) => deps.directorySyncs.load(key),
    (loaded) => loaded.state,
  );

/**
 * Creates the directory sync of an organization (`owner`: identity named it, `directoryOwner`) in
 * an environment: the one-per-organization check is decided on its stream (409
 * `directory_sync_already_exists`), nothing written before. Answers it with its token's value.
 */
export async function createDirectory(
  deps: DirectorySyncsDeps,
  owner: DirectoryOwner,
  settings: { provider_type: DirectorySyncProvider; active: boolean },
  context: RequestContext,
) {
  const { key, found: loaded } = await loadDirectory(deps, owner);
  const { value, token } = issueToken();
  const at = deps.now().toISOString();
  const command: DirectorySyncCommand = {
    type: 'CreateDirectorySync',
    data: { id: randomUUID(), ...owner, ...settings, token, at },
  };
  const result = await deps.directorySyncs.handle(
    key,
    command,
    { ...deps.metadata(context), environment: owner.environment },
    { loaded },
  );
  return toDirectorySync(deps.config, directoryOf(result), value);
}

/** Changes the directory sync of `owner` (404 when it has none), a new token's value in the answer when `rotate`. */
export async function changeDirectory(
  deps: DirectorySyncsDeps,
  owner: DirectoryOwner,
  changes: { provider_type?: DirectorySyncProvider; active?: boolean; rotate: boolean },
  context: RequestContext,
) {
  const { key, found: loaded } = await loadDirectory(deps, owner);
  const { rotate, ...fields } = changes;
  const issued = rotate ? issueToken() : null;
  const command: DirectorySyncCommand = {
    type: 'UpdateDirectorySync',
    data: { ...fields, ...(issued ? { token: issued.token } : {}), at: deps.now().toISOString() },
  };
  const result = await deps.directorySyncs.handle(
    key,
    command,
    { ...deps.metadata(context), environment: owner.environment },
    { loaded },
  );
  return toDirectorySync(deps.config, directoryOf(result), issued?.value ?? null);
}

/** The organization of `domain` in the request's environment, as identity names it (404 when it has none live). */
const ownerOf = (deps: DirectorySyncsDeps, domain: string, context: RequestContext) =>
  directoryOwner(deps, { organization_domain: domain, environment: environmentOf(context.meta) }, context.meta.correlationId);

export function createDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params, body }: OperationInput<typeof createDirectorySync>, context: RequestContext) => {
    const owner = await ownerOf(deps, params.org_domain, context);
    return created(await createDirectory(deps, owner, body, context));
  };
}

export function updateDirectorySyncHandler(deps: DirectorySyncsDeps) {
  return async ({ params, body }: OperationInput<typeof updateDirectorySync>, context: RequestContext) => {
    const owner = await ownerOf(deps, params.org_domain, context);
    const { rotate_auth_secret_token, ...changes } = body;
    return ok(await changeDirectory(deps, owner, { ...changes, rotate: rotate_auth_secret_token }, context));
  };
}
