import type { Environment } from '../common/environment.schema';
import type { AttributeMapping, DirectorySyncProvider } from '../entities/directory-sync.schema';

/**
 * Events of the directory-sync service, as other services read them with
 * `subscribeToServiceEvents({ source: 'directory-sync' })`.
 *
 * Webhook codes these events stand for (for the webhooks service's catalogue); each SCIM change
 * carries its webhook-facing `EventData` (SPEC.md section 3) ready in `data.event`:
 *
 * | event type                   | webhook code                                     |
 * |------------------------------|--------------------------------------------------|
 * | DirectorySyncCreated         | `directory_sync.created`                         |
 * | DirectorySyncUpdated         | `directory_sync.updated`                         |
 * | DirectorySyncTokenRotated    | `directory_sync.token_rotated`                   |
 * | AttributesMappingChanged     | `directory_sync.attributes_mapping.updated`      |
 * | ScimUserProvisioned          | `directory_sync.user.provisioning.success`       |
 * | ScimUserProvisioningFailed   | `directory_sync.user.provisioning.failure`       |
 * | ScimUserUpdated              | `directory_sync.user.update.success`             |
 * | ScimUserDeactivated          | `directory_sync.user.deactivation.success`       |
 * | ScimUserDeleted              | `directory_sync.user.deletion.success`           |
 * | ScimGroupCreated             | `directory_sync.group.creation.success`          |
 * | ScimGroupUpdated             | `directory_sync.group.update.success`            |
 * | ScimGroupDeleted             | `directory_sync.group.deletion.success`          |
 */
export const directorySyncWebhookCodes = {
  DirectorySyncCreated: 'directory_sync.created',
  DirectorySyncUpdated: 'directory_sync.updated',
  DirectorySyncTokenRotated: 'directory_sync.token_rotated',
  AttributesMappingChanged: 'directory_sync.attributes_mapping.updated',
  ScimUserProvisioned: 'directory_sync.user.provisioning.success',
  ScimUserProvisioningFailed: 'directory_sync.user.provisioning.failure',
  ScimUserUpdated: 'directory_sync.user.update.success',
  ScimUserDeactivated: 'directory_sync.user.deactivation.success',
  ScimUserDeleted: 'directory_sync.user.deletion.success',
  ScimGroupCreated: 'directory_sync.group.creation.success',
  ScimGroupUpdated: 'directory_sync.group.update.success',
  ScimGroupDeleted: 'directory_sync.group.deletion.success',
} as const;

/** The webhook-facing data of a directory-sync event (SPEC.md section 3, `EventData`). */
export interface DirectorySyncEventData {
  change: 'created' | 'updated' | 'deactivated' | 'deleted';
  directory_sync_id: string;
  provider: DirectorySyncProvider;
  resource: {
    id: string;
    type: 'user' | 'group' | 'directory_sync' | 'attributes_mapping';
    changes: { new_values: Record<string, unknown>; previous_values: Record<string, unknown> };
  };
}

/** What the event store keeps of a directory sync: the token only as a hash. */
export interface DirectorySyncData {
  id: string;
  /** The organization it belongs to (a later one of the same domain is another); absent from directory syncs created before it was recorded. */
  organization_id?: string;
  organization_domain: string;
  environment: Environment;
  active: boolean;
  provider_type: DirectorySyncProvider;
  token: { hash: string; hint: string; provider_key: string };
  inserted_at: string;
  updated_at: string;
}

export type DirectorySyncEvent =
  | { type: 'DirectorySyncCreated'; data: { directory_sync: DirectorySyncData; event: DirectorySyncEventData } }
  | { type: 'DirectorySyncUpdated'; data: { directory_sync: DirectorySyncData; event: DirectorySyncEventData } }
  | {
      type: 'DirectorySyncTokenRotated';
      data: { directory_sync: DirectorySyncData; event: DirectorySyncEventData };
    }
  /** Its organization was deleted: the SCIM token stops working, a directory sync created later is a new one. */
  | {
      type: 'DirectorySyncDeleted';
      data: {
        directory_sync_id: string;
        /** As on its creation. */
        organization_id?: string;
        organization_domain: string;
        environment: Environment;
        reason: 'organization_deleted';
        at: string;
      };
    };

export type AttributesMappingEvent = {
  type: 'AttributesMappingChanged';
  data: { environment: Environment; attributes: AttributeMapping[]; previous_attributes: AttributeMapping[]; at: string };
};

export type ScimResourceKind = 'User' | 'Group';

/** A SCIM user or group as this service keeps it (the SCIM representation without `id` and `meta`). */
export interface ScimResourceData {
  kind: ScimResourceKind;
  id: string;
  directory_sync_id: string;
  /** The directory sync's organization (the tenant of its events); absent when it was recorded without it. */
  organization_id?: string;
  organization_domain: string;
  environment: Environment;
  provider: DirectorySyncProvider;
  resource: Record<string, unknown>;
  /** The Sesame user (or group) it provisions; null for a user without a usable email. */
  linked_id: string | null;
  /** `meta.version` is `W/"<version>"`. */
  version: number;
  created: string;
  last_modified: string;
}

type ScimChange = { scim_resource: ScimResourceData; event: DirectorySyncEventData };

export type ScimResourceEvent =
  | { type: 'ScimUserProvisioned'; data: ScimChange }
  | { type: 'ScimUserUpdated'; data: ScimChange }
  | { type: 'ScimUserDeactivated'; data: ScimChange }
  | { type: 'ScimUserDeleted'; data: ScimChange }
  | { type: 'ScimGroupCreated'; data: ScimChange }
  | { type: 'ScimGroupUpdated'; data: ScimChange }
  | { type: 'ScimGroupDeleted'; data: ScimChange };

/**
 * The webhook-facing data of a refused SCIM user creation: who the provider tried to create (its
 * `userName` and `externalId`, never the rest of what it sent, which may hold a password) and
 * the SCIM error it was answered.
 */
export interface ScimProvisioningFailureEventData {
  directory_sync_id: string;
  provider: DirectorySyncProvider;
  resource: { type: 'user'; user_name: string | null; external_id: string | null };
  error: { status: number; scim_type: string | null; detail: string };
}

/** Stream `scimProvisioningFailure-<uuid>`: one refused SCIM user creation, recorded for webhooks. */
export type ScimProvisioningFailureEvent = {
  type: 'ScimUserProvisioningFailed';
  data: {
    /** The directory sync's organization (the tenant of its events); absent when it was recorded without it. */
    organization_id?: string;
    organization_domain: string;
    environment: Environment;
    event: ScimProvisioningFailureEventData;
    at: string;
  };
};
