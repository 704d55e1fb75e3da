import { listQueryOfSearch } from '@sesame/contracts';
import type { RpcReply, ScimResourceData, ScimResourceKind, ScimSearchRequest } from '@sesame/contracts';
import { ok } from '@sesame/platform';
import type { DirectorySyncConfig } from '../config';
import { serviceProviderConfig } from './protocol/discovery';
import type { ScimObject } from './protocol/filter';
import { listResponseUrn } from './protocol/list';
import { scimFail } from './protocol/scim-error';
import { resourceTypes, schemaDefinitions } from './protocol/scim-schemas';
import { representation } from './resources/scim-representation';
import type { ScimRequest, ScimResources } from './resources/scim-resources';

export type ScimInput = { params: { directory_id: string; id?: string }; query?: unknown; body?: unknown };
/** A SCIM endpoint, once the directory sync is authenticated. */
export type ScimHandler = (input: ScimInput, request: ScimRequest) => Promise<RpcReply<unknown>>;

const searchQuery = (input: ScimInput) => listQueryOfSearch(input.body as ScimSearchRequest);

/** The discovery endpoints (RFC 7644 section 4), by operation id. */
export function discoveryHandlers(config: DirectorySyncConfig): Record<string, ScimHandler> {
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
  const types = (request: ScimRequest) => resourceTypes((id) => `${request.baseUrl}/ResourceTypes/${id}`);
  const schemas = (request: ScimRequest) => schemaDefinitions((id) => `${request.baseUrl}/Schemas/${id}`);
  return {
    scimServiceProviderConfig: async (_input, request) =>
      ok(serviceProviderConfig(`${request.baseUrl}/ServiceProviderConfig`, docs)),
    scimResourceTypes: async (_input, request) => ok(list(types(request))),
    scimResourceType: async ({ params }, request) => ok(one(types(request), params.id)),
    scimSchemas: async (_input, request) => ok(list(schemas(request))),
    scimSchema: async ({ params }, request) => ok(one(schemas(request), params.id)),
  };
}

/** A resource's reply with its `ETag` (and `Location` when created). */
function withHeaders(status: number, data: ScimResourceData, request: ScimRequest, body: ScimObject | null): RpcReply<unknown> {
  const resource = representation(data, request.baseUrl);
  const meta = resource.meta as { location: string; version: string };
  const headers: Record<string, string> = { etag: meta.version, ...(status === 201 ? { location: meta.location } : {}) };
  return { ok: true, status, body: body === null ? null : (body ?? resource), headers };
}

/** The endpoints of one kind of resource (RFC 7644 section 3), by operation id. */
export function resourceHandlers(resources: ScimResources, kind: ScimResourceKind): Record<string, ScimHandler> {
  const plural = kind === 'User' ? 'Users' : 'Groups';
  const query = (input: ScimInput) => (input.query ?? {}) as Parameters<ScimResources['list']>[1];
  const body = (input: ScimInput) => input.body as ScimObject;
  const id = (input: ScimInput) => input.params.id as string;
  return {
    [`scimCreate${kind}`]: async (input, request) => {
      const data = await resources.create(kind, body(input), request);
      return withHeaders(201, data, request, await resources.represent(data, request));
    },
    [`scimList${plural}`]: async (input, request) => ok(await resources.list([kind], query(input), request)),
    [`scimSearch${plural}`]: async (input, request) => ok(await resources.list([kind], searchQuery(input), request)),
    [`scimGet${kind}`]: async (input, request) => {
      const { data, body: selected } = await resources.get(kind, id(input), query(input), request);
      return withHeaders(200, data, request, selected);
    },
    [`scimReplace${kind}`]: async (input, request) => {
      const data = await resources.replace(kind, id(input), body(input), request);
      return withHeaders(200, data, request, await resources.represent(data, request));
    },
    [`scimPatch${kind}`]: async (input, request) =>
      withHeaders(204, await resources.patch(kind, id(input), body(input), request), request, null),
    [`scimDelete${kind}`]: async (input, request) => {
      await resources.delete(kind, id(input), request);
      return { ok: true, status: 204, body: null };
    },
  };
}

/** A search at the root, over users and groups (RFC 7644 section 3.4.3). */
export const searchHandlers = (resources: ScimResources): Record<string, ScimHandler> => ({
  scimSearch: async (input, request) => ok(await resources.list(['User', 'Group'], searchQuery(input), request)),
});
