import { subjects } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { RpcRefusal } from './typed-rpc-client';
import type { TypedRpcClient } from './typed-rpc-client';

/**
 * Whether `domain` is a live organization of `environment`, asked of identity (its public get
 * answers 404 otherwise; the caller never reads identity's store). Any other refusal, and no
 * answer (503), is thrown.
 */
export async function organizationExists(
  identity: Pick<TypedRpcClient, 'call'>,
  domain: string,
  environment: Environment,
  correlationId: string,
): Promise<boolean> {
  try {
    await identity.call(
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
