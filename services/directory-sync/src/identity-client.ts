import { catalogueError, subjects } from '@sesame/contracts';
import type { Environment, IdentityRpc, IdentityRpcRequest, IdentityRpcResponse, RpcMeta } from '@sesame/contracts';
import { RpcUnavailableError, fail } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform';

/** The calls to identity's subjects that provisioning makes. */
export type IdentityCalls = Pick<IdentityClient, 'call'>;

/**
 * The identity subjects this service calls (it never reads identity's store). A refusal from
 * identity is rethrown as the same DomainError; no answer is 503.
 */
export class IdentityClient {
  constructor(private readonly rpc: RpcClient) {}

  async call<S extends keyof IdentityRpc>(
    subject: S,
    input: IdentityRpcRequest<S>,
    correlationId: string,
  ): Promise<IdentityRpcResponse<S>> {
    return this.send(subject, { correlationId }, input);
  }

  /** Whether the organization is live in the environment (identity's public get answers 404 otherwise). */
  async organizationExists(domain: string, environment: Environment, correlationId: string): Promise<boolean> {
    try {
      await this.send(
        subjects.identity.organizations.get,
        { correlationId, environment },
        { params: { org_domain: domain }, query: {}, body: {} },
      );
      return true;
    } catch (error) {
      if ((error as { error?: { code?: string } }).error?.code === 'resource_not_found') return false;
      throw error;
    }
  }

  private async send<T>(subject: string, meta: RpcMeta, input: unknown): Promise<T> {
    let reply;
    try {
      reply = await this.rpc.request<T>(subject, { meta, input });
    } catch (error) {
      if (error instanceof RpcUnavailableError) fail(catalogueError('service_unavailable'));
      throw error;
    }
    if (!reply.ok) fail(reply.error);
    return reply.body;
  }
}
