import type { MagicLinkConnection } from '../entities/auth-methods.schema';
import type { ConnectionTenant } from './auth-methods.events';

export type MagicLinkConnectionEvent =
  | { type: 'MagicLinkConnectionCreated'; data: ConnectionTenant & { connection: MagicLinkConnection; at: string } }
  | { type: 'MagicLinkConnectionUpdated'; data: ConnectionTenant & { connection: MagicLinkConnection; at: string } }
  /** Its organization was deleted. */
  | { type: 'MagicLinkConnectionDeleted'; data: ConnectionTenant & { reason: 'organization_deleted'; at: string } };
