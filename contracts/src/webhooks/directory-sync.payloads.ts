import { z } from '../zod';
import { attributeMappingSchema, directorySyncProviders } from '../entities/directory-sync.schema';

/**
 * The `data` of the directory-sync service's webhook events (SPEC.md section 3, `EventData`): what
 * changed, in which directory sync, with the new and previous values of the changed attributes.
 */
export const directorySyncEventDataSchema = z
  .object({
    change: z.enum(['created', 'updated', 'deactivated', 'deleted']),
    directory_sync_id: z.string(),
    provider: z.enum(directorySyncProviders),
    resource: z.object({
      id: z.string(),
      type: z.enum(['user', 'group', 'directory_sync', 'attributes_mapping']),
      changes: z.object({
        new_values: z.record(z.string(), z.unknown()).meta({ description: 'New values of the attributes that changed' }),
        previous_values: z.record(z.string(), z.unknown()).meta({ description: 'Their values before (null: absent)' }),
      }),
    }),
  })
  .meta({ id: 'DirectorySyncEventData' });

/** A refused SCIM user creation: who the provider tried to create (never the rest of what it sent) and the SCIM error. */
export const scimProvisioningFailurePayloadSchema = z.object({
  directory_sync_id: z.string(),
  provider: z.enum(directorySyncProviders),
  resource: z.object({ type: z.literal('user'), user_name: z.string().nullable(), external_id: z.string().nullable() }),
  error: z.object({ status: z.number().int(), scim_type: z.string().nullable(), detail: z.string() }),
});

export const attributesMappingUpdatedPayloadSchema = z.object({
  attributes: z.array(attributeMappingSchema),
  previous_attributes: z.array(attributeMappingSchema),
});

export const directorySyncPayloadSchemas = {
  'directory_sync.created': directorySyncEventDataSchema,
  'directory_sync.updated': directorySyncEventDataSchema,
  'directory_sync.token_rotated': directorySyncEventDataSchema,
  'directory_sync.attributes_mapping.updated': attributesMappingUpdatedPayloadSchema,
  'directory_sync.user.provisioning.success': directorySyncEventDataSchema,
  'directory_sync.user.provisioning.failure': scimProvisioningFailurePayloadSchema,
  'directory_sync.user.update.success': directorySyncEventDataSchema,
  'directory_sync.user.deactivation.success': directorySyncEventDataSchema,
  'directory_sync.user.deletion.success': directorySyncEventDataSchema,
  'directory_sync.group.creation.success': directorySyncEventDataSchema,
  'directory_sync.group.update.success': directorySyncEventDataSchema,
  'directory_sync.group.deletion.success': directorySyncEventDataSchema,
} as const;
