import { catalogueError, subjects } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { RpcUnavailableError, fail } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform';

/** Organizations as webhooks sees them: identity's organization lookup over NATS (it never reads identity's store). */
export class Organizations {
  constructor(private readonly rpc: RpcClient) {}

  /** Whether `domain` is a live organization of `environment`; null (no scope) is. No answer is 503. */
  async found(domain: string | null | undefined, environment: Environment, correlationId: string): Promise<boolean> {
    if (domain === null || domain === undefined) return true;
    let reply;
    try {
      reply = await this.rpc.request(subjects.identity.organizations.get, {
        meta: { correlationId, environment },
        input: { params: { org_domain: domain }, query: {}, body: {} },
      });
    } catch (error) {
      if (error instanceof RpcUnavailableError) fail(catalogueError('service_unavailable'));
      throw error;
    }
    if (reply.ok) return true;
    if ('code' in reply.error && reply.error.code === 'resource_not_found') return false;
    return fail(reply.error);
  }
}
