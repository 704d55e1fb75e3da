import { subjects } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { RpcRefusal, TypedRpcClient } from '@sesame/platform';
import type { RpcTransport } from '@sesame/platform';

/** Organizations as webhooks sees them: identity's organization lookup over NATS (it never reads identity's store). */
export class Organizations {
  private readonly rpc: TypedRpcClient;

  constructor(transport: RpcTransport) {
    this.rpc = new TypedRpcClient(transport);
  }

  /** Whether `domain` is a live organization of `environment`; null (no scope) is. No answer is 503. */
  async found(domain: string | null | undefined, environment: Environment, correlationId: string): Promise<boolean> {
    if (domain === null || domain === undefined) return true;
    try {
      await this.rpc.call(
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
