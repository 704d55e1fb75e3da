import { catalogueError } from '@sesame/contracts';
import type { IdentityRpc, IdentityRpcRequest, IdentityRpcResponse } from '@sesame/contracts';
import { DomainError, RpcUnavailableError } from '@sesame/platform';
import type { RpcClient } from '@sesame/platform';

/** Calls an identity subject (typed by `identityRpc`); an error answer is thrown as its DomainError. */
export async function callIdentity<S extends keyof IdentityRpc>(
  rpc: RpcClient,
  subject: S,
  input: IdentityRpcRequest<S>,
  correlationId: string,
): Promise<IdentityRpcResponse<S>> {
  let reply;
  try {
    reply = await rpc.request<IdentityRpcResponse<S>>(subject, { meta: { correlationId }, input });
  } catch (error) {
    if (error instanceof RpcUnavailableError) throw new DomainError(catalogueError('service_unavailable'));
    throw error;
  }
  if (!reply.ok) throw new DomainError(reply.error);
  return reply.body;
}
