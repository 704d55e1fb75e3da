import { randomUUID } from 'node:crypto';
import type {
  DirectorySyncData,
  ScimProvisioningFailureEvent,
  ScimResourceData,
  ScimResourceEvent,
  ScimResourceKind,
} from '@sesame/contracts';
import { scimError } from '@sesame/contracts';
import { Aggregate, AggregateView, streamName, tenantOfData, withTenant } from '@sesame/platform';
import type { EventMetadata, HandleOptions, Reservation, Step, UniqueClaim } from '@sesame/platform';
import type { ServiceRuntime } from '@sesame/platform/runtime';
import { scimFail } from '../protocol/scim-error';
import { requireLive, scimResourceDecider, userNameKey } from './domain/scim-resource.decider';
import { lookupKey } from './domain/lookup-keys';
import type { ScimResourceCommand, ScimResourceState } from './domain/scim-resource.decider';
import { groupsWithMemberFilter, scimResourceStream, scimResourcesView } from './projections/scim-resources.projection';

const userNameKind = 'scimUserName';

/** What the store needs of the service runtime (an in-memory one in unit tests). */
export type ScimStoreRuntime = Pick<ServiceRuntime, 'eventStore' | 'readModels' | 'projections' | 'commandDeps'>;

/** SCIM users and groups: their streams, their read model and the `userName` reservations. */
export class ScimResourceStore {
  private readonly view: AggregateView<ScimResourceState, ScimResourceEvent>;
  private readonly resources: Aggregate<ScimResourceState, ScimResourceCommand, ScimResourceEvent>;

  constructor(private readonly runtime: ScimStoreRuntime) {
    this.view = runtime.projections.register(new AggregateView(scimResourcesView, runtime.readModels, runtime.eventStore));
    this.resources = new Aggregate(runtime.commandDeps<ScimResourceState>(), {
      decider: scimResourceDecider,
      stream: scimResourceStream,
      exclusive: true,
    });
  }

  /** A live resource of the directory, from the read model (GET); 404 otherwise. */
  async get(directory: DirectorySyncData, kind: ScimResourceKind, id: string): Promise<ScimResourceData> {
    return this.owned(await this.find(directory, kind, id), directory, kind);
  }

  /** A live resource of the directory from the read model, or null. */
  async find(directory: DirectorySyncData, kind: ScimResourceKind, id: string): Promise<ScimResourceData | null> {
    const document = await this.view.documents.get(id);
    const data = document?.status === 'active' ? document.scim_resource : null;
    return data && data.directory_sync_id === directory.id && data.kind === kind ? data : null;
  }

  /**
   * The precondition of every change: the resource is a live one of the directory (404
   * otherwise) at the version `If-Match` names, if any (412 otherwise).
   */
  live(state: ScimResourceState, directory: DirectorySyncData, kind: ScimResourceKind, ifMatch?: string): ScimResourceData {
    this.owned(state.status === 'active' ? state.scim_resource : null, directory, kind);
    return requireLive(state, ifMatch);
  }

  /** Every live resource of a kind in the directory, oldest first. */
  async list(
    directory: DirectorySyncData,
    kind: ScimResourceKind,
    where: Record<string, unknown> = {},
  ): Promise<ScimResourceData[]> {
    const documents = await this.view.documents.find(
      { 'scim_resource.directory_sync_id': directory.id, 'scim_resource.kind': kind, ...where },
      { sort: { 'scim_resource.created': 1 } },
    );
    return documents.flatMap((document) => (document.status === 'active' ? [document.scim_resource] : []));
  }

  /** How many live resources of a kind the directory holds. */
  count(directoryId: string, kind: ScimResourceKind): Promise<number> {
    return this.view.documents.count({ 'scim_resource.directory_sync_id': directoryId, 'scim_resource.kind': kind });
  }

  /** The live groups that have this user as a member, oldest first, found by index. */
  async groupsWithMember(directory: DirectorySyncData, userId: string): Promise<ScimResourceData[]> {
    const documents = await this.view.documents.find(groupsWithMemberFilter(userId), { sort: { 'scim_resource.created': 1 } });
    return documents.flatMap((document) =>
      document.status === 'active' && document.scim_resource.directory_sync_id === directory.id ? [document.scim_resource] : [],
    );
  }

  /** The live resources with this lookup key (`lookupKeyOf` a filter), oldest first, found by index. */
  async findByLookupKey(key: string): Promise<ScimResourceData[]> {
    const documents = await this.view.documents.find({ lookup_keys: key }, { sort: { 'scim_resource.created': 1 } });
    return documents.flatMap((document) => (document.status === 'active' ? [document.scim_resource] : []));
  }

  /** The user with this `userName` (case-insensitive) in the directory, found by index. */
  async findByUserName(directory: DirectorySyncData, userName: string): Promise<ScimResourceData | null> {
    const [user] = await this.findByLookupKey(lookupKey(directory.id, 'User', 'username', userName));
    return user ?? null;
  }

  /** Check → act → commit on one resource (platform `Aggregate.execute`); answers the resource after the command. */
  async execute<Checked>(
    id: string,
    step: Step<ScimResourceState, ScimResourceCommand, Checked>,
    metadata: EventMetadata,
    options: Pick<HandleOptions<ScimResourceState>, 'newStream'> = {},
  ): Promise<ScimResourceData> {
    const { state } = await this.resources.execute(id, step, metadata, options);
    if (state.status === 'none') throw new Error('a SCIM command left no resource');
    return state.scim_resource;
  }

  /** `userName` in the directory, held by resource `id`. */
  userName(directory: DirectorySyncData, userName: string, id: string): Reservation {
    return { kind: userNameKind, value: userNameKey(directory.id, userName), owner: scimResourceStream(id) };
  }

  /** Takes `userName` in the directory for resource `id`: 409 `uniqueness` when another user holds it. */
  userNameClaim(directory: DirectorySyncData, userName: string, id: string): UniqueClaim {
    return {
      reservation: this.userName(directory, userName, id),
      taken: scimError(409, `The userName '${userName}' is already taken in this directory`, 'uniqueness'),
    };
  }

  /**
   * A SCIM user creation refused with `error` (`directory_sync.user.provisioning.failure`): a fact
   * with no rule to decide, appended once to its own stream. Only the `userName` and `externalId`
   * the provider sent are kept, never the rest (it may hold a password).
   */
  async recordProvisioningFailure(
    directory: DirectorySyncData,
    resource: Record<string, unknown>,
    error: { status: number; scimType?: string; detail: string },
    metadata: EventMetadata,
  ): Promise<void> {
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    const event: ScimProvisioningFailureEvent = {
      type: 'ScimUserProvisioningFailed',
      data: {
        ...(directory.organization_id ? { organization_id: directory.organization_id } : {}),
        organization_domain: directory.organization_domain,
        environment: directory.environment,
        event: {
          directory_sync_id: directory.id,
          provider: directory.provider_type,
          resource: { type: 'user', user_name: text(resource.userName), external_id: text(resource.externalId) },
          error: { status: error.status, scim_type: error.scimType ?? null, detail: error.detail },
        },
        at: metadata.occurredAt,
      },
    };
    await this.runtime.eventStore.appendToStream(streamName('scimProvisioningFailure', randomUUID()), [event], {
      expectedRevision: 'no_stream',
      metadata: withTenant(metadata, tenantOfData(event.data)),
    });
  }

  private owned(data: ScimResourceData | null, directory: DirectorySyncData, kind: ScimResourceKind): ScimResourceData {
    if (!data || data.directory_sync_id !== directory.id || data.kind !== kind) scimFail(404, `${kind} not found`);
    return data;
  }
}
