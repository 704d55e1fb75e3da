import { z } from '../zod';

/** Privileges an API key can hold; each operation requires one of them. */
export const scopes = [
  'organizations:read',
  'organizations:write',
  'users:read',
  'users:write',
  'admins:read',
  'admins:write',
  'connections:read',
  'connections:write',
  'authentications:write',
  /** Replaces a user's existing password without a `password_code` (`POST /api/v2/password`): an administrator's power. */
  'passwords:write',
  'redirect_uris:read',
  'redirect_uris:write',
  'tokens:read',
  'tokens:write',
  'directory_syncs:read',
  'directory_syncs:write',
  'webhooks:read',
  'webhooks:write',
] as const;
export const scopeSchema = z.enum(scopes);
export type Scope = z.infer<typeof scopeSchema>;

/** Privileges a new key holds only when they are asked for by name (`api-keys create --scopes`). */
export const explicitScopes: readonly Scope[] = ['passwords:write'];
/** The scopes of a key created without `--scopes`: every one but the explicit ones. */
export const defaultScopes: readonly Scope[] = scopes.filter((scope) => !explicitScopes.includes(scope));
