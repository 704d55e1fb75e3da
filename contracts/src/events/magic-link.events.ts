import type { MagicLinkConnection } from '../entities/auth-methods.schema';
import type { ConnectionTenant } from './auth-methods.events';

export type MagicLinkConnectionEvent =
  | { type: 'MagicLinkConnectionCreated'; data: ConnectionTenant & { connection: MagicLinkConnection; at: string } }
  | { type: 'MagicLinkConnectionUpdated'; data: ConnectionTenant & { connection: MagicLinkConnection; at: string } };
