import { createDirectorySync, getDirectorySync, updateDirectorySync } from '@sesame/contracts';
import { AggregateView } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { DirectorySyncConfig } from '../config';
import type { IdentityClient } from '../identity-client';
import { directorySyncAggregate } from './commands/directory-sync.aggregate';
import { createDirectorySyncHandler, updateDirectorySyncHandler } from './commands/directory-sync.handlers';
import type { DirectorySyncsDeps } from './directory-syncs.deps';
import { directorySyncsView } from './projections/directory-syncs.projection';
import { getDirectorySyncHandler } from './queries/directory-sync.queries';

/** Directory syncs: one aggregate per organization and environment, the three HTTP operations. */
export function registerDirectorySyncs(
  runtime: ServiceRuntime,
  config: DirectorySyncConfig,
  identity: IdentityClient,
): DirectorySyncsDeps {
  const deps: DirectorySyncsDeps = {
    directorySyncs: runtime.aggregate(directorySyncAggregate),
    view: runtime.projections.register(new AggregateView(directorySyncsView, runtime.readModels, runtime.eventStore)),
    identity,
    metadata: (context) => runtime.metadata(context),
    config,
    now: () => new Date(),
  };
  runtime.router.operation(getDirectorySync, getDirectorySyncHandler(deps));
  runtime.router.operation(createDirectorySync, createDirectorySyncHandler(deps));
  runtime.router.operation(updateDirectorySync, updateDirectorySyncHandler(deps));
  return deps;
}
