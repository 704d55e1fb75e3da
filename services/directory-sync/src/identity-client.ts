import type { Environment } from '@sesame/contracts';
import { TypedRpcClient, organizationExists } from '@sesame/platform';

/** The calls to identity's subjects that provisioning makes. */
export type IdentityCalls = Pick<IdentityClient, 'call'>;

/**
 * The identity subjects this service calls (it never reads identity's store): the platform's typed
 * client (a refusal from identity is thrown as the `RpcRefusal` it carries; no answer is 503),
 * with the organization check directory syncs make.
 */
export class IdentityClient extends TypedRpcClient {
  /** Whether the organization is live in the environment (identity's public get answers 404 otherwise). */
  organizationExists(domain: string, environment: Environment, correlationId: string): Promise<boolean> {
    return organizationExists(this, domain, environment, correlationId);
  }
}
