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
