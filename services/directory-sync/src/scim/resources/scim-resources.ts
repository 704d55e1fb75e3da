import { randomUUID } from 'node:crypto';
import type { DirectorySyncData, ScimListQuery, ScimResourceData, ScimResourceKind } from '@sesame/contracts';
import { DomainError } from '@sesame/platform';
import type { EventMetadata } from '@sesame/platform';
import { selectAttributes } from '../protocol/attributes';
import { matches, parseFilter } from '../protocol/filter';
import type { Filter, ScimObject } from '../protocol/filter';
import { listResponse } from '../protocol/list';
import { normalizePatch, normalizeResource } from '../protocol/quirks';
import { applyPatchOp, coerceIncoming, scimSchemaUrns } from '../protocol/scim-schemas';
import type { ProvisioningRule } from './provisioning-rules';
import { representation } from './scim-representation';
import type { ScimResourceStore } from './scim-resource-store';
import { groupsByMember } from './user-groups';

/** Who is asking: the directory sync, the `If-Match` header, and the metadata of the events it causes. */
export interface ScimRequest {
  directory: DirectorySyncData;
  baseUrl: string;
  ifMatch?: string;
  metadata: EventMetadata;
}

const userNameOf = (resource: ScimObject) => (typeof resource.userName === 'string' ? resource.userName : null);

/** The SCIM protocol of Users and Groups (RFC 7644 section 3) over the store and the provisioning rules. */
export class ScimResources {
  constructor(
    private readonly store: ScimResourceStore,
    private readonly rules: Record<ScimResourceKind, ProvisioningRule>,
  ) {}

  /** A user the provider could not create is recorded (`directory_sync.user.provisioning.failure`) before the refusal is answered. */
  async create(kind: ScimResourceKind, body: ScimObject, request: ScimRequest): Promise<ScimResourceData> {
    try {
      return await this.provision(kind, body, request);
    } catch (error) {
      const refusal = error instanceof DomainError && error.error.kind === 'scim' ? error.error : null;
      if (kind === 'User' && refusal)
        await this.store.recordProvisioningFailure(request.directory, body, refusal, request.metadata);
      throw error;
    }
  }

  private async provision(kind: ScimResourceKind, body: ScimObject, request: ScimRequest): Promise<ScimResourceData> {
    const { directory, metadata } = request;
    const resource = coerceIncoming(kind, normalizeResource(body));
    const id = randomUUID();
    const userName = kind === 'User' ? userNameOf(resource) : null;
    if (userName) await this.store.reserveUserName(directory, userName, id, metadata);
    try {
      const provisioned = await this.rules[kind].provision(directory, resource, null, metadata.correlationId);
      const scim_resource = {
        kind,
        id,
        directory_sync_id: directory.id,
        organization_domain: directory.organization_domain,
        environment: directory.environment,
        provider: directory.provider_type,
        resource: provisioned.resource,
        linked_id: provisioned.linkedId,
      };
      return await this.store.run(id, { type: 'CreateScimResource', data: { scim_resource, at: metadata.occurredAt } }, metadata);
    } catch (error) {
      if (userName) await this.store.releaseUserName(directory, userName, id, metadata);
      throw error;
    }
  }

  async replace(kind: ScimResourceKind, id: string, body: ScimObject, request: ScimRequest): Promise<ScimResourceData> {
    const current = await this.store.load(request.directory, kind, id);
    return this.change(current, coerceIncoming(kind, normalizeResource(body)), request);
  }

  async patch(kind: ScimResourceKind, id: string, body: ScimObject, request: ScimRequest): Promise<ScimResourceData> {
    const current = await this.store.load(request.directory, kind, id);
    const patched = await applyPatchOp(kind, { ...current.resource, id }, normalizePatch(body, scimSchemaUrns.PatchOp));
    return this.change(current, patched, request);
  }

  async delete(kind: ScimResourceKind, id: string, request: ScimRequest): Promise<void> {
    const { directory, metadata } = request;
    const current = await this.store.load(directory, kind, id);
    await this.rules[kind].deprovision(directory, current, metadata.correlationId);
    const command = { type: 'DeleteScimResource' as const, data: { at: metadata.occurredAt, ...ifMatch(request) } };
    await this.store.run(id, command, metadata);
    const userName = kind === 'User' ? userNameOf(current.resource) : null;
    if (userName) await this.store.releaseUserName(directory, userName, id, metadata);
    if (kind === 'User') await this.leaveGroups(id, request);
  }

  async get(
    kind: ScimResourceKind,
    id: string,
    query: ScimListQuery,
    request: ScimRequest,
  ): Promise<{ data: ScimResourceData; body: ScimObject }> {
    const data = await this.store.get(request.directory, kind, id);
    return { data, body: selectAttributes(await this.represent(data, request), query.attributes, query.excludedAttributes) };
  }

  /** The whole SCIM representation of a resource, a user with its `groups`. */
  async represent(data: ScimResourceData, request: ScimRequest): Promise<ScimObject> {
    if (data.kind !== 'User') return representation(data, request.baseUrl);
    const groups = groupsByMember(await this.store.groupsWithMember(request.directory, data.id), request.baseUrl);
    return representation(data, request.baseUrl, groups.get(data.id));
  }

  /** A page of the resources of the given kinds (several for a search at the root, RFC 7644 section 3.4.3) that match the query. */
  async list(kinds: ScimResourceKind[], query: ScimListQuery, request: ScimRequest): Promise<ScimObject> {
    const filter = query.filter?.trim() ? parseFilter(query.filter) : null;
    const found = await Promise.all(kinds.map((kind) => this.matching(kind, filter, request)));
    return listResponse(found.flat(), query);
  }

  private async matching(kind: ScimResourceKind, filter: Filter | null, request: ScimRequest): Promise<ScimObject[]> {
    const userName = kind === 'User' && filter ? userNameLookup(filter) : null;
    const candidates =
      userName === null
        ? await this.store.list(request.directory, kind)
        : [await this.store.findByUserName(request.directory, userName)].filter((data) => data !== null);
    const resources = await this.representAll(kind, candidates, request);
    return filter ? resources.filter((resource) => matches(resource, filter)) : resources;
  }

  /**
   * Resources as served, users with their `groups` so that filters and `attributes` see them:
   * one user's found by index (the `userName eq` lookup), a listing's from all the directory's groups.
   */
  private async representAll(
    kind: ScimResourceKind,
    candidates: ScimResourceData[],
    request: ScimRequest,
  ): Promise<ScimObject[]> {
    if (kind !== 'User' || candidates.length <= 1) return Promise.all(candidates.map((data) => this.represent(data, request)));
    const groups = groupsByMember(await this.store.list(request.directory, 'Group'), request.baseUrl);
    return candidates.map((data) => representation(data, request.baseUrl, groups.get(data.id)));
  }

  private async change(current: ScimResourceData, next: ScimObject, request: ScimRequest): Promise<ScimResourceData> {
    const { directory, metadata } = request;
    const [before, after] = current.kind === 'User' ? [userNameOf(current.resource), userNameOf(next)] : [null, null];
    const renamed = after !== null && before?.toLowerCase() !== after.toLowerCase();
    if (renamed) await this.store.reserveUserName(directory, after, current.id, metadata);
    try {
      const provisioned = await this.rules[current.kind].provision(directory, next, current.linked_id, metadata.correlationId);
      const data = {
        resource: provisioned.resource,
        linked_id: provisioned.linkedId,
        at: metadata.occurredAt,
        ...ifMatch(request),
      };
      const changed = await this.store.run(current.id, { type: 'ReplaceScimResource', data }, metadata);
      if (renamed && before) await this.store.releaseUserName(directory, before, current.id, metadata);
      return changed;
    } catch (error) {
      if (renamed) await this.store.releaseUserName(directory, after, current.id, metadata);
      throw error;
    }
  }

  /** A deleted user is no longer a member of the directory's groups. */
  private async leaveGroups(userId: string, request: ScimRequest): Promise<void> {
    const groups = await this.store.groupsWithMember(request.directory, userId);
    for (const group of groups) {
      const members = (group.resource.members as ScimObject[]).filter((member) => member.value !== userId);
      await this.change(group, { ...group.resource, members }, { ...request, ifMatch: undefined });
    }
  }
}

const ifMatch = (request: ScimRequest) => (request.ifMatch === undefined ? {} : { if_match: request.ifMatch });

/** `userName eq "..."`, the lookup every provider makes before creating a user: answered by index. */
function userNameLookup(filter: Filter): string | null {
  if (filter.op !== 'eq' || typeof filter.compValue !== 'string') return null;
  return filter.attrPath.toLowerCase() === 'username' ||
    filter.attrPath.toLowerCase() === `${scimSchemaUrns.User.toLowerCase()}:username`
    ? filter.compValue
    : null;
}
