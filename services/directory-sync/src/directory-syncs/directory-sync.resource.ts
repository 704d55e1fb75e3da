import type { DirectorySync, DirectorySyncData } from '@sesame/contracts';
import { scimBaseUrl } from '../config';
import type { DirectorySyncConfig } from '../config';

/** The API representation of a directory sync; its token's value only when just issued. */
export const toDirectorySync = (
  config: DirectorySyncConfig,
  directory: DirectorySyncData,
  value: string | null = null,
): DirectorySync => ({
  __type__: 'DirectorySync',
  __domain__: directory.organization_domain,
  __environment__: directory.environment,
  id: directory.id,
  active: directory.active,
  provider_type: directory.provider_type,
  auth_secret_token: { hint: directory.token.hint, provider_key: directory.token.provider_key, value },
  scim_base_url: scimBaseUrl(config, directory.id),
  inserted_at: directory.inserted_at,
  updated_at: directory.updated_at,
});
