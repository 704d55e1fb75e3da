import { z } from '../zod';
import { timestampSchema } from '../common/primitives.schema';
import { directorySyncSchema } from '../entities/directory-sync.schema';
import { subjects } from '../subjects';
import { tenantScopeSchema } from './identity.rpc';

/**
 * The identity providers the onboarding page offers for directory sync, as `provider_type`
 * values: Entra ID (`azure_ad`), Okta, OneLogin, JumpCloud and any other SCIM 2.0 client (`generic`).
 */
export const onboardingDirectoryProviders = ['azure_ad', 'okta', 'onelogin', 'jumpcloud', 'generic'] as const;
export const onboardingDirectoryProviderSchema = z.enum(onboardingDirectoryProviders, {
  error: `must be one of ${onboardingDirectoryProviders.join(', ')}`,
});

/**
 * Directory-sync subjects of the IT-admin onboarding page (through the gateway, with the
 * organization and environment of the admin's invitation; the gateway has checked the
 * invitation allows `directory_sync`). Send `{ meta: { correlationId }, input }`.
 *
 * - `find` `{ organization_domain, environment }` → `{ directory_sync: DirectorySync | null }` (token value null).
 * - `setUp` `{ organization_domain, environment, provider_type }` → the `DirectorySync`: created (active,
 *   its token value in this answer only) when absent, else its provider changed (token value null).
 *   An unknown organization answers 404 `resource_not_found`.
 * - `rotateToken` `{ organization_domain, environment }` → the `DirectorySync` with a new token value,
 *   shown in this answer only; the previous token stops working at once (404 when there is none).
 * - `status` `{ organization_domain, environment }` → what the SCIM client did: its last request, the
 *   users and groups it provisioned, its last error (404 when there is no directory sync).
 */
export const directorySyncTenantRequestSchema = tenantScopeSchema;
export const setUpDirectorySyncRequestSchema = tenantScopeSchema.extend({ provider_type: onboardingDirectoryProviderSchema });
export const maybeDirectorySyncSchema = z.object({ directory_sync: directorySyncSchema.nullable() });

export const scimActivityErrorSchema = z
  .object({
    at: timestampSchema,
    status: z.number().int().meta({ description: 'The HTTP status Sesame answered' }),
    detail: z.string().meta({ description: 'The SCIM error Sesame answered' }),
  })
  .meta({ id: 'DirectorySyncLastError' });
export const directorySyncStatusSchema = z
  .object({
    directory_sync_id: z.uuid(),
    last_request_at: timestampSchema
      .nullable()
      .meta({ description: 'When the identity provider last called the SCIM API (recorded at most once a minute)' }),
    users_provisioned: z.number().int().nonnegative(),
    groups_provisioned: z.number().int().nonnegative(),
    last_error: scimActivityErrorSchema.nullable().meta({ description: 'The last SCIM request Sesame refused, if any' }),
  })
  .meta({ id: 'DirectorySyncStatus' });
export type DirectorySyncStatus = z.infer<typeof directorySyncStatusSchema>;

export const directorySyncRpc = {
  [subjects.directorySync.onboarding.find]: { request: directorySyncTenantRequestSchema, response: maybeDirectorySyncSchema },
  [subjects.directorySync.onboarding.setUp]: { request: setUpDirectorySyncRequestSchema, response: directorySyncSchema },
  [subjects.directorySync.onboarding.rotateToken]: { request: directorySyncTenantRequestSchema, response: directorySyncSchema },
  [subjects.directorySync.onboarding.status]: { request: directorySyncTenantRequestSchema, response: directorySyncStatusSchema },
} as const;
