import { catalogueError, subjects } from '@sesame/contracts';
import type { Organization, RpcMeta } from '@sesame/contracts';
import { DomainError, RpcUnavailableError } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform';

/**
 * Organizations as auth-methods sees them: identity's organization lookup over NATS. An unknown
 * or deleted organization is a DomainError 404 for the caller; no answer is 503.
 */
export class Organizations {
  constructor(private readonly rpc: RpcClient) {}

  /** The live organization `domain` of `meta.environment` (each environment has its own organizations). */
  async get(domain: string, meta: RpcMeta): Promise<Organization> {
    let reply;
    try {
      reply = await this.rpc.request<Organization>(subjects.identity.organizations.get, {
        meta: { correlationId: meta.correlationId, ...(meta.environment ? { environment: meta.environment } : {}) },
        input: { params: { org_domain: domain }, query: {}, body: {} },
      });
    } catch (error) {
      if (error instanceof RpcUnavailableError) throw new DomainError(catalogueError('service_unavailable'));
      throw error;
    }
    if (!reply.ok) throw new DomainError(reply.error);
    return reply.body;
  }
}
