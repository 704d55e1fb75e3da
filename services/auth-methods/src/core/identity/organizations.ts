import { subjects } from '@sesame/contracts';
import type { Organization, RpcMeta } from '@sesame/contracts';
import { TypedRpcClient } from '@sesame/platform';
import type { RpcTransport } from '@sesame/platform';

/**
 * Organizations as auth-methods sees them: identity's organization lookup over NATS. An unknown
 * or deleted organization is a refusal 404 for the caller; no answer is 503.
 */
export class Organizations {
  private readonly rpc: TypedRpcClient;

  constructor(transport: RpcTransport) {
    this.rpc = new TypedRpcClient(transport);
  }

  /** The live organization `domain` of `meta.environment` (each environment has its own organizations). */
  async get(domain: string, meta: RpcMeta): Promise<Organization> {
    return this.rpc.call(
      subjects.identity.organizations.get,
      { params: { org_domain: domain }, query: {}, body: {} },
      { correlationId: meta.correlationId, ...(meta.environment ? { environment: meta.environment } : {}) },
    );
  }
}
