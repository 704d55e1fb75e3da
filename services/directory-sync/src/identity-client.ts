import { subjects } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { RpcRefusal, TypedRpcClient } from '@sesame/platform';

/** The calls to identity's subjects that provisioning makes. */
export type IdentityCalls = Pick<IdentityClient, 'call'>;

/**
 * The identity subjects this service calls (it never reads identity's store): the platform's typed
 * client (a refusal from identity is thrown as the `RpcRefusal` it carries; no answer is 503),
 * with the organization check directory syncs make.
 */
export class IdentityClient extends TypedRpcClient {
  /** Whether the organization is live in the environment (identity's public get answers 404 otherwise). */
  async organizationExists(domain: string, environment: Environment, correlationId: string): Promise<boolean> {
    try {
      await this.call(
        subjects.identity.organizations.get,
        { params: { org_domain: domain }, query: {}, body: {} },
        { correlationId, environment },
      );
      return true;
    } catch (error) {
      if (error instanceof RpcRefusal && error.reason === 'resource_not_found') return false;
      throw error;
    }
  }
}
