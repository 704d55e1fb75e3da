import { randomUUID } from 'node:crypto';
import type {
  DirectorySyncData,
  ScimProvisioningFailureEvent,
  ScimResourceData,
  ScimResourceEvent,
  ScimResourceKind,
} from '@sesame/contracts';
import { AggregateView, fold, handleCommand, releaseUnique, reserveUnique, streamName } from '@sesame/platform';
import type { EventMetadata, ServiceRuntime } from '@sesame/platform';
import { scimFail } from '../protocol/scim-error';
import { scimResourceDecider, userNameKey } from './domain/scim-resource.decider';
import type { ScimResourceCommand, ScimResourceState } from './domain/scim-resource.decider';
import { groupsWithMemberFilter, scimResourceStream, scimResourcesView } from './projections/scim-resources.projection';

const userNameKind = 'scimUserName';

/** SCIM users and groups: their streams, their read model and the `userName` reservations. */
export class ScimResourceStore {
  private readonly view: AggregateView<ScimResourceState, ScimResourceEvent>;

  constructor(private readonly runtime: ServiceRuntime) {
    this.view = runtime.projections.register(new AggregateView(scimResourcesView, runtime.readModels, runtime.eventStore));
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

  /** A live resource of the directory at the head of its stream (before a change); 404 otherwise. */
  async load(directory: DirectorySyncData, kind: ScimResourceKind, id: string): Promise<ScimResourceData> {
    const { events } = await this.runtime.eventStore.readStream(scimResourceStream(id));
    const state = fold(scimResourceDecider, events as unknown as ScimResourceEvent[]);
    return this.owned(state.status === 'active' ? state.scim_resource : null, directory, kind);
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

  /** The live groups that have this user as a member, oldest first, found by index. */
  async groupsWithMember(directory: DirectorySyncData, userId: string): Promise<ScimResourceData[]> {
    const documents = await this.view.documents.find(groupsWithMemberFilter(userId), { sort: { 'scim_resource.created': 1 } });
    return documents.flatMap((document) =>
      document.status === 'active' && document.scim_resource.directory_sync_id === directory.id ? [document.scim_resource] : [],
    );
  }

  /** The user with this `userName` (case-insensitive) in the directory, found by index. */
  async findByUserName(directory: DirectorySyncData, userName: string): Promise<ScimResourceData | null> {
    const [document] = await this.view.documents.find({ user_name_key: userNameKey(directory.id, userName) }, { limit: 1 });
    return document?.status === 'active' ? document.scim_resource : null;
  }

  async run(id: string, command: ScimResourceCommand, metadata: EventMetadata): Promise<ScimResourceData> {
    const { state } = await handleCommand(
      this.runtime.commandDeps<ScimResourceState>(),
      scimResourceDecider,
      scimResourceStream(id),
      command,
      metadata,
      {
        newStream: command.type === 'CreateScimResource',
      },
    );
    if (state.status === 'none') throw new Error('a SCIM command left no resource');
    return state.scim_resource;
  }

  /** Takes `userName` in the directory for resource `id`: 409 `uniqueness` when another user holds it. */
  async reserveUserName(directory: DirectorySyncData, userName: string, id: string, metadata: EventMetadata): Promise<void> {
    const reservation = { kind: userNameKind, value: userNameKey(directory.id, userName), owner: scimResourceStream(id) };
    if ((await reserveUnique(this.runtime.eventStore, reservation, metadata)) === 'taken')
      scimFail(409, `The userName '${userName}' is already taken in this directory`, 'uniqueness');
  }

  async releaseUserName(directory: DirectorySyncData, userName: string, id: string, metadata: EventMetadata): Promise<void> {
    await releaseUnique(
      this.runtime.eventStore,
      { kind: userNameKind, value: userNameKey(directory.id, userName), owner: scimResourceStream(id) },
      metadata,
    );
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
      metadata,
    });
  }

  private owned(data: ScimResourceData | null, directory: DirectorySyncData, kind: ScimResourceKind): ScimResourceData {
    if (!data || data.directory_sync_id !== directory.id || data.kind !== kind) scimFail(404, `${kind} not found`);
    return data;
  }
}
