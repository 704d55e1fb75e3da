import { AggregateView, systemActor } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { DirectorySyncsView } from '../directory-syncs/directory-syncs.deps';
import { scimActivityDecider } from './domain/scim-activity.decider';
import { scimActivityStream, scimActivityView } from './projections/scim-activity.projection';
import { ScimActivityRecorder } from './scim-activity.recorder';

/**
 * SCIM activity: when each directory sync's client last called and its last refused request
 * (stream `scimActivity-<directory sync id>`, read model `scim_activity_v1`).
 */
export function registerScimActivity(runtime: ServiceRuntime, directories: DirectorySyncsView) {
  const view = runtime.projections.register(new AggregateView(scimActivityView, runtime.readModels, runtime.eventStore));
  const recorder = new ScimActivityRecorder({
    activity: runtime.aggregate({ decider: scimActivityDecider, stream: scimActivityStream }),
    directories,
    metadata: () => runtime.metadata({ meta: { correlationId: 'scim-activity' } }, systemActor('directory-sync:scim-activity')),
    logger: runtime.logger,
    now: () => new Date(),
  });
  return { view, recorder };
}
export type ScimActivity = ReturnType<typeof registerScimActivity>;
