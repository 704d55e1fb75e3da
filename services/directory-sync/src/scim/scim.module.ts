import { listQueryOfSearch, scimOperations } from '@sesame/contracts';
import type { Operation, RpcReply, ScimResourceData, ScimResourceKind, ScimSearchRequest } from '@sesame/contracts';
import { ok, replyStatus } from '@sesame/platform';
import type { RequestContext, ServiceRuntime } from '@sesame/platform';
import type { IdentityClient } from '../identity-client';
import type { MappingOf } from '../attributes-mapping/attributes-mapping.deps';
import { scimBaseUrl } from '../config';
import type { DirectorySyncConfig } from '../config';
import type { DirectorySyncsView } from '../directory-syncs/directory-syncs.deps';
import { serviceProviderConfig } from './protocol/discovery';
import { listResponseUrn } from './protocol/list';
import { scimFail } from './protocol/scim-error';
import { resourceTypes, schemaDefinitions } from './protocol/scim-schemas';
import type { ScimObject } from './protocol/filter';
import { GroupProvisioning } from './resources/group-provisioning';
import { provisioningRules } from './resources/provisioning-rules';
import { representation } from './resources/scim-representation';
import { ScimResourceStore } from './resources/scim-resource-store';
import { ScimResources } from './resources/scim-resources';
import type { ScimRequest } from './resources/scim-resources';
import { UserProvisioning } from './resources/user-provisioning';
import { authenticateDirectory } from './scim-auth';

type Input = { params: { directory_id: string; id?: string }; query?: unknown; body?: unknown };
type Handler = (input: Input, request: ScimRequest) => Promise<RpcReply<unknown>>;

/** The `operation` label of the SCIM metrics is the subject after it: `users.create`, `groups.patch`, `search`... */
const scimSubjectPrefix = 'directory-sync.scim.';

const operation = (id: string) => {
  const found = scimOperations.find((candidate) => candidate.operationId === id);
  if (!found) throw new Error(`No SCIM operation ${id}`);
  return found as Operation;
};

/** The SCIM 2.0 endpoints of every directory sync: discovery, Users and Groups. */
export function registerScim(
  runtime: ServiceRuntime,
  config: DirectorySyncConfig,
  directories: DirectorySyncsView,
  identity: IdentityClient,
  mappingOf: MappingOf,
): void {
  const store = new ScimResourceStore(runtime);
  const resources = new ScimResources(
    store,
    provisioningRules(store, new UserProvisioning(identity, mappingOf), new GroupProvisioning(identity)),
  );
  const serve = (operationId: string, handler: Handler) => {
    const { subject } = operation(operationId);
    runtime.router.onReply(subject, (reply) =>
      runtime.metrics.scimRequests.inc({ operation: subject.replace(scimSubjectPrefix, ''), status: replyStatus(reply) }),
    );
    runtime.router.operation(operation(operationId), async (input, context: RequestContext) => {
      const { directory_id } = (input as Input).params;
      const directory = await authenticateDirectory(directories, context.meta, directory_id);
      const request: ScimRequest = {
        directory,
        baseUrl: scimBaseUrl(config, directory.id),
        ...(context.meta.scim?.ifMatch ? { ifMatch: context.meta.scim.ifMatch } : {}),
        metadata: { ...runtime.metadata(context, `scim:${directory.id}`), environment: directory.environment },
      };
      return handler(input as Input, request);
    });
  };
  registerDiscovery(serve, config);
  for (const kind of ['User', 'Group'] as const) registerResource(serve, resources, kind);
  serve('scimSearch', async (input, request) => ok(await resources.list(['User', 'Group'], searchQuery(input), request)));
}

const searchQuery = (input: Input) => listQueryOfSearch(input.body as ScimSearchRequest);

function registerDiscovery(serve: (id: string, handler: Handler) => void, config: DirectorySyncConfig): void {
  const docs = `${config.SESAME_PUBLIC_URL.replace(/\/$/, '')}/directory-sync`;
  const list = (resources: ScimObject[]) => ({
    schemas: [listResponseUrn],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  });
  const one = (resources: ScimObject[], id: string | undefined) =>
    resources.find((resource) => resource.id === id) ?? scimFail(404, `No such resource: ${id}`);
  serve('scimServiceProviderConfig', async (_input, request) =>
    ok(serviceProviderConfig(`${request.baseUrl}/ServiceProviderConfig`, docs)),
  );
  serve('scimResourceTypes', async (_input, request) =>
    ok(list(resourceTypes((id) => `${request.baseUrl}/ResourceTypes/${id}`))),
  );
  serve('scimResourceType', async ({ params }, request) =>
    ok(
      one(
        resourceTypes((id) => `${request.baseUrl}/ResourceTypes/${id}`),
        params.id,
      ),
    ),
  );
  serve('scimSchemas', async (_input, request) => ok(list(schemaDefinitions((id) => `${request.baseUrl}/Schemas/${id}`))));
  serve('scimSchema', async ({ params }, request) =>
    ok(
      one(
        schemaDefinitions((id) => `${request.baseUrl}/Schemas/${id}`),
        params.id,
      ),
    ),
  );
}

function registerResource(serve: (id: string, handler: Handler) => void, resources: ScimResources, kind: ScimResourceKind): void {
  const plural = kind === 'User' ? 'Users' : 'Groups';
  const withHeaders = (
    status: number,
    data: ScimResourceData,
    request: ScimRequest,
    body: ScimObject | null,
  ): RpcReply<unknown> => {
    const resource = representation(data, request.baseUrl);
    const meta = resource.meta as { location: string; version: string };
    const headers: Record<string, string> = { etag: meta.version, ...(status === 201 ? { location: meta.location } : {}) };
    return { ok: true, status, body: body === null ? null : (body ?? resource), headers };
  };
  const query = (input: Input) => (input.query ?? {}) as Parameters<ScimResources['list']>[1];
  const body = (input: Input) => input.body as ScimObject;
  const id = (input: Input) => input.params.id as string;
  serve(`scimCreate${kind}`, async (input, request) => {
    const data = await resources.create(kind, body(input), request);
    return withHeaders(201, data, request, await resources.represent(data, request));
  });
  serve(`scimList${plural}`, async (input, request) => ok(await resources.list([kind], query(input), request)));
  serve(`scimSearch${plural}`, async (input, request) => ok(await resources.list([kind], searchQuery(input), request)));
  serve(`scimGet${kind}`, async (input, request) => {
    const { data, body: selected } = await resources.get(kind, id(input), query(input), request);
    return withHeaders(200, data, request, selected);
  });
  serve(`scimReplace${kind}`, async (input, request) => {
    const data = await resources.replace(kind, id(input), body(input), request);
    return withHeaders(200, data, request, await resources.represent(data, request));
  });
  serve(`scimPatch${kind}`, async (input, request) =>
    withHeaders(204, await resources.patch(kind, id(input), body(input), request), request, null),
  );
  serve(`scimDelete${kind}`, async (input, request) => {
    await resources.delete(kind, id(input), request);
    return { ok: true, status: 204, body: null };
  });
}
