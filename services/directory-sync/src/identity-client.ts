import type { DirectorySyncData, Environment, RpcMeta } from '@sesame/contracts';
import { TypedRpcClient, organizationIdOf } from '@sesame/platform';

/** The calls to identity's subjects that provisioning makes. */
export type IdentityCalls = Pick<IdentityClient, 'call'>;

/**
 * The identity subjects this service calls (it never reads identity's store): the platform's typed
 * client (a refusal from identity is thrown as the `RpcRefusal` it carries; no answer is 503),
 * with the organization check directory syncs make.
 */
export class IdentityClient extends TypedRpcClient {
  /** The id of the organization live in the environment, or null (identity's public get answers 404). */
  organizationIdOf(domain: string, environment: Environment, correlationId: string): Promise<string | null> {
    return organizationIdOf(this, domain, environment, correlationId);
  }
}

/** What provisioning sends identity: the SCIM request's correlation id, the directory sync as the actor of what it changes. */
export const provisioningMeta = (directory: Pick<DirectorySyncData, 'id'>, correlationId: string): RpcMeta => ({
  correlationId,
  actor: { type: 'directory_sync', id: directory.id },
});
