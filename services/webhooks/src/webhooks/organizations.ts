import type { Environment } from '@sesame/contracts';
import { TypedRpcClient, organizationExists } from '@sesame/platform';
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
    return organizationExists(this.rpc, domain, environment, correlationId);
  }
}
