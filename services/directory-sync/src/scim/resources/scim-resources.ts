import { randomUUID } from 'node:crypto';
import type { DirectorySyncData, ScimListQuery, ScimResourceData, ScimResourceKind } from '@sesame/contracts';
import { DomainError } from '@sesame/platform';
import type { EventMetadata, Step } from '@sesame/platform';
import { selectAttributes } from '../protocol/attributes';
import { matches, parseFilter } from '../protocol/filter';
import { lookupKeyOf } from './domain/lookup-keys';
import type { Filter, ScimObject } from '../protocol/filter';
import { listResponse } from '../protocol/list';
import { normalizePatch, normalizeResource } from '../protocol/quirks';
import { applyPatchOp, coerceIncoming, resourceNames, scimSchemaUrns } from '../protocol/scim-schemas';
import type { ProvisioningRule } from './provisioning-rules';
import type { ScimResourceCommand, ScimResourceState } from './domain/scim-resource.decider';
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
    const resource = coerceIncoming(kind, normalizeResource(body, resourceNames[kind]));
    const id = randomUUID();
    const userName = kind === 'User' ? userNameOf(resource) : null;
    const step: Step<ScimResourceState, ScimResourceCommand, ScimObject> = {
      check: () => resource,
      take: () => (userName ? [this.store.userNameClaim(directory, userName, id)] : []),
      act: async () => {
        const provisioned = await this.rules[kind].provision(directory, resource, null, metadata.correlationId);
        const scim_resource = {
          kind,
          id,
          directory_sync_id: directory.id,
          ...(directory.organization_id ? { organization_id: directory.organization_id } : {}),
          organization_domain: directory.organization_domain,
          environment: directory.environment,
          provider: directory.provider_type,
          resource: provisioned.resource,
          linked_id: provisioned.linkedId,
        };
        return { type: 'CreateScimResource', data: { scim_resource, at: metadata.occurredAt } };
      },
    };
    return this.store.execute(id, step, metadata, { newStream: true });
  }

  async replace(kind: ScimResourceKind, id: string, body: ScimObject, request: ScimRequest): Promise<ScimResourceData> {
    const next = coerceIncoming(kind, normalizeResource(body, resourceNames[kind]));
    return this.change(kind, id, request, async () => next);
  }

  async patch(kind: ScimResourceKind, id: string, body: ScimObject, request: ScimRequest): Promise<ScimResourceData> {
    const operations = normalizePatch(body, scimSchemaUrns.PatchOp, resourceNames[kind]);
    return this.change(kind, id, request, (current) => applyPatchOp(kind, { ...current.resource, id }, operations));
  }

  /** Deletes the resource and what it provisions; a deleted user leaves its groups and frees its `userName`. */
  async delete(kind: ScimResourceKind, id: string, request: ScimRequest): Promise<void> {
    const { directory, metadata } = request;
    const step: Step<ScimResourceState, ScimResourceCommand, ScimResourceData> = {
      check: ({ state }) => this.store.live(state, directory, kind, request.ifMatch),
      act: async (current) => {
        await this.rules[kind].deprovision(directory, current, metadata.correlationId);
        return { type: 'DeleteScimResource', data: { at: metadata.occurredAt, ...ifMatch(request) } };
      },
      release: (current) => {
        const userName = kind === 'User' ? userNameOf(current.resource) : null;
        return userName ? [this.store.userName(directory, userName, id)] : [];
      },
    };
    await this.store.execute(id, step, metadata);
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
    const key = filter ? lookupKeyOf(filter, request.directory.id, kind) : null;
    const candidates = key === null ? await this.store.list(request.directory, kind) : await this.store.findByLookupKey(key);
    const resources = await this.representAll(kind, candidates, request);
    return filter ? resources.filter((resource) => matches(resource, filter)) : resources;
  }

  /**
   * Resources as served, users with their `groups` so that filters and `attributes` see them:
   * a few users' found by index (an `eq` lookup) each by their own, a listing's from all the directory's groups.
   */
  private async representAll(
    kind: ScimResourceKind,
    candidates: ScimResourceData[],
    request: ScimRequest,
  ): Promise<ScimObject[]> {
    if (kind !== 'User' || candidates.length <= 4) return Promise.all(candidates.map((data) => this.represent(data, request)));
    const groups = groupsByMember(await this.store.list(request.directory, 'Group'), request.baseUrl);
    return candidates.map((data) => representation(data, request.baseUrl, groups.get(data.id)));
  }

  /**
   * Replaces the resource with `nextOf` its current content: check (live, `If-Match`, the new
   * content valid) → take a new `userName` → provision the Sesame user or group → commit; the
   * old `userName` is given back once committed.
   */
  private change(
    kind: ScimResourceKind,
    id: string,
    request: ScimRequest,
    nextOf: (current: ScimResourceData) => Promise<ScimObject>,
  ): Promise<ScimResourceData> {
    const { directory, metadata } = request;
    const step: Step<ScimResourceState, ScimResourceCommand, Change> = {
      check: async ({ state }) => {
        const current = this.store.live(state, directory, kind, request.ifMatch);
        return renaming(current, await nextOf(current));
      },
      take: ({ renamed }) => (renamed ? [this.store.userNameClaim(directory, renamed.to, id)] : []),
      act: async ({ current, next }) => {
        const provisioned = await this.rules[kind].provision(directory, next, current.linked_id, metadata.correlationId);
        const data = {
          resource: provisioned.resource,
          linked_id: provisioned.linkedId,
          at: metadata.occurredAt,
          ...ifMatch(request),
        };
        return { type: 'ReplaceScimResource', data };
      },
      release: ({ renamed }) => (renamed?.from ? [this.store.userName(directory, renamed.from, id)] : []),
    };
    return this.store.execute(id, step, metadata);
  }

  /** A deleted user is no longer a member of the directory's groups. */
  private async leaveGroups(userId: string, request: ScimRequest): Promise<void> {
    const groups = await this.store.groupsWithMember(request.directory, userId);
    for (const group of groups)
      await this.change('Group', group.id, { ...request, ifMatch: undefined }, async (current) => ({
        ...current.resource,
        members: membersOf(current).filter((member) => member.value !== userId),
      }));
  }
}

/** A change of a resource, and of its `userName` (users only) when it is not the same whatever the case. */
interface Change {
  current: ScimResourceData;
  next: ScimObject;
  renamed: { from: string | null; to: string } | null;
}

function renaming(current: ScimResourceData, next: ScimObject): Change {
  const [from, to] = current.kind === 'User' ? [userNameOf(current.resource), userNameOf(next)] : [null, null];
  const renamed = to !== null && from?.toLowerCase() !== to.toLowerCase();
  return { current, next, renamed: renamed ? { from, to } : null };
}

const membersOf = (group: ScimResourceData) =>
  Array.isArray(group.resource.members) ? (group.resource.members as ScimObject[]) : [];

const ifMatch = (request: ScimRequest) => (request.ifMatch === undefined ? {} : { if_match: request.ifMatch });
