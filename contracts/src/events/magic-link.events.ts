import type { MagicLinkConnection } from '../entities/auth-methods.schema';
import type { Tenant } from './tenant';

export type MagicLinkConnectionEvent =
  | { type: 'MagicLinkConnectionCreated'; data: Tenant & { connection: MagicLinkConnection; at: string } }
  | { type: 'MagicLinkConnectionUpdated'; data: Tenant & { connection: MagicLinkConnection; at: string } }
  /** Its organization was deleted. */
  | { type: 'MagicLinkConnectionDeleted'; data: Tenant & { reason: 'organization_deleted'; at: string } };
