import { subjects } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { RpcRefusal, TypedRpcClient } from '@sesame/platform';
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
    try {
      const organization = await this.rpc.call(
        subjects.identity.organizations.get,
        { params: { org_domain: domain }, query: {}, body: {} },
        { correlationId, environment },
      );
      return { found: true, organization_id: organization.id };
    } catch (error) {
      if (error instanceof RpcRefusal && error.reason === 'resource_not_found') return { found: false, organization_id: null };
      throw error;
    }
  }
}
