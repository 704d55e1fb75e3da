import type { Environment } from '@sesame/contracts';
import { TypedRpcClient, organizationIdOf } from '@sesame/platform';
import type { RpcTransport } from '@sesame/platform';

export interface OrganizationScope {
  found: boolean;
  organization_id: string | null;
}

/** Organizations as webhooks sees them: identity's organization lookup over NATS (it never reads identity's store). */
export class Organizations {
  private readonly rpc: TypedRpcClient;

  constructor(transport: RpcTransport) {
    this.rpc = new TypedRpcClient(transport);
  }

  /**
   * The scope `domain` names: whether it is a live organization of `environment` and its id; null
   * (no scope) is found, with no id. No answer is 503.
   */
  async scopeOf(domain: string | null | undefined, environment: Environment, correlationId: string): Promise<OrganizationScope> {
    if (domain === null || domain === undefined) return { found: true, organization_id: null };
    const organization_id = await organizationIdOf(this.rpc, domain, environment, correlationId);
    return { found: organization_id !== null, organization_id };
  }
}
