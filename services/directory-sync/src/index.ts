import type { RpcClient } from '@sesame/platform/messaging';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { registerAttributesMapping } from './attributes-mapping/attributes-mapping.module';
import type { DirectorySyncConfig } from './config';
import { registerDirectorySyncs } from './directory-syncs/directory-syncs.module';
import { IdentityClient } from './identity-client';
import { registerOnboardingDirectorySync } from './onboarding/onboarding.module';
import { registerScim } from './scim/scim.module';
import { registerScimActivity } from './scim-activity/scim-activity.module';

export { directorySyncConfigSchema } from './config';
export type { DirectorySyncConfig } from './config';

/**
 * The service's handlers and projections on a runtime (directory syncs, attribute mapping, SCIM,
 * SCIM activity, the onboarding page's directory sync), calling identity through `rpc`: what
 * `main` starts, and what the service specifications run. `recordScimActivity: false` leaves the
 * SCIM requests' activity unrecorded (it is appended beside the request, after its reply): for
 * specifications of the SCIM endpoints that count what one request appends.
 */
export function assembleDirectorySync(
  runtime: ServiceRuntime,
  config: DirectorySyncConfig,
  rpc: RpcClient,
  options: { recordScimActivity?: boolean } = {},
): void {
  const identity = new IdentityClient(rpc);
  const directories = registerDirectorySyncs(runtime, config, identity);
  const mappingOf = registerAttributesMapping(runtime);
  const activity = registerScimActivity(runtime, directories.view);
  const observer = options.recordScimActivity === false ? { observe: () => undefined } : activity.recorder;
  const resources = registerScim(runtime, config, directories.view, identity, mappingOf, observer);
  registerOnboardingDirectorySync(runtime, directories, activity.view, resources);
}
