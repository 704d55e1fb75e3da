import { directorySyncTenantRequestSchema, setUpDirectorySyncRequestSchema, subjects } from '@sesame/contracts';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { DirectorySyncsDeps } from '../directory-syncs/directory-syncs.deps';
import type { ScimActivity } from '../scim-activity/scim-activity.module';
import type { ScimResourceStore } from '../scim/resources/scim-resource-store';
import {
  findOnboardingDirectorySyncHandler,
  onboardingDirectorySyncStatusHandler,
  rotateOnboardingDirectorySyncTokenHandler,
  setUpOnboardingDirectorySyncHandler,
} from './onboarding.handlers';

/**
 * The IT-admin onboarding page's directory sync (`subjects.directorySync.onboarding`), for the
 * organization and environment of the invitation the gateway checked.
 */
export function registerOnboardingDirectorySync(
  runtime: ServiceRuntime,
  directories: DirectorySyncsDeps,
  activity: ScimActivity['view'],
  resources: Pick<ScimResourceStore, 'count'>,
): void {
  const deps = { directories, activity, resources };
  const { onboarding } = subjects.directorySync;
  runtime.router.on(onboarding.find, findOnboardingDirectorySyncHandler(deps), directorySyncTenantRequestSchema);
  runtime.router.on(onboarding.setUp, setUpOnboardingDirectorySyncHandler(deps), setUpDirectorySyncRequestSchema);
  runtime.router.on(onboarding.rotateToken, rotateOnboardingDirectorySyncTokenHandler(deps), directorySyncTenantRequestSchema);
  runtime.router.on(onboarding.status, onboardingDirectorySyncStatusHandler(deps), directorySyncTenantRequestSchema);
}
