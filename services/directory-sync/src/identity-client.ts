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
  /** The id of the organization live in the environment, or null (identity's public get answers 404). */
  async organizationIdOf(domain: string, environment: Environment, correlationId: string): Promise<string | null> {
    try {
      const organization = await this.call(
        subjects.identity.organizations.get,
        { params: { org_domain: domain }, query: {}, body: {} },
        { correlationId, environment },
      );
      return organization.id;
    } catch (error) {
      if (error instanceof RpcRefusal && error.reason === 'resource_not_found') return null;
      throw error;
    }
  }
}
