import { scimOperations } from '@sesame/contracts';
import type { Operation } from '@sesame/contracts';
import { replyStatus } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import type { IdentityClient } from '../identity-client';
import type { MappingOf } from '../attributes-mapping/attributes-mapping.deps';
import { scimBaseUrl } from '../config';
import type { DirectorySyncConfig } from '../config';
import type { DirectorySyncsView } from '../directory-syncs/directory-syncs.deps';
import type { ScimActivityRecorder } from '../scim-activity/scim-activity.recorder';
import { GroupProvisioning } from './resources/group-provisioning';
import { provisioningRules } from './resources/provisioning-rules';
import { ScimResourceStore } from './resources/scim-resource-store';
import { ScimResources } from './resources/scim-resources';
import type { ScimRequest } from './resources/scim-resources';
import { UserProvisioning } from './resources/user-provisioning';
import { authenticateDirectory } from './scim-auth';
import { discoveryHandlers, resourceHandlers, searchHandlers } from './scim.handlers';
import type { ScimHandler, ScimInput } from './scim.handlers';

/** The `operation` label of the SCIM metrics is the subject after it: `users.create`, `groups.patch`, `search`... */
const scimSubjectPrefix = 'directory-sync.scim.';

const operation = (id: string) => {
  const found = scimOperations.find((candidate) => candidate.operationId === id);
  if (!found) throw new Error(`No SCIM operation ${id}`);
  return found as Operation;
};

/**
 * The SCIM 2.0 endpoints of every directory sync: discovery, Users and Groups. Each reply is shown
 * to `activity` (the status of the onboarding page). Answers the store of SCIM users and groups.
 */
export function registerScim(
  runtime: ServiceRuntime,
  config: DirectorySyncConfig,
  directories: DirectorySyncsView,
  identity: IdentityClient,
  mappingOf: MappingOf,
  activity: Pick<ScimActivityRecorder, 'observe'>,
): ScimResourceStore {
  const store = new ScimResourceStore(runtime);
  const users = new UserProvisioning(identity, mappingOf);
  const resources = new ScimResources(store, provisioningRules(store, users, new GroupProvisioning(identity)));
  const serve = (operationId: string, handler: ScimHandler) => {
    const { subject } = operation(operationId);
    runtime.router.onReply(subject, (reply) =>
      runtime.metrics.scimRequests.inc({ operation: subject.replace(scimSubjectPrefix, ''), status: replyStatus(reply) }),
    );
    runtime.router.onReply(subject, (reply, input) =>
      activity.observe((input as ScimInput | undefined)?.params?.directory_id, reply),
    );
    runtime.router.operation(operation(operationId), async (input, context: RequestContext) => {
      const directory = await authenticateDirectory(directories, context.meta, (input as ScimInput).params.directory_id);
      const request: ScimRequest = {
        directory,
        baseUrl: scimBaseUrl(config, directory.id),
        ...(context.meta.scim?.ifMatch ? { ifMatch: context.meta.scim.ifMatch } : {}),
        metadata: {
          ...runtime.metadata(context, { type: 'directory_sync', id: directory.id }),
          environment: directory.environment,
        },
      };
      return handler(input as ScimInput, request);
    });
  };
  const handlers: Record<string, ScimHandler> = {
    ...discoveryHandlers(config),
    ...resourceHandlers(resources, 'User'),
    ...resourceHandlers(resources, 'Group'),
    ...searchHandlers(resources),
  };
  for (const [operationId, handler] of Object.entries(handlers)) serve(operationId, handler);
  return store;
}
