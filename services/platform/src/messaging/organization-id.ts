import { subjects } from '@sesame/contracts';
import type { Environment } from '@sesame/contracts';
import { RpcRefusal } from './typed-rpc-client';
import type { TypedRpcClient } from './typed-rpc-client';

/**
 * The id of the live organization `domain` of `environment`, or null when there is none, asked of
 * identity (its public get answers 404 otherwise; the caller never reads identity's store). Any
 * other refusal, and no answer (503), is thrown.
 */
export async function organizationIdOf(
  identity: Pick<TypedRpcClient, 'call'>,
  domain: string,
  environment: Environment,
  correlationId: string,
): Promise<string | null> {
  try {
    const organization = await identity.call(
      subjects.identity.organizations.get,
      { params: { org_domain: domain }, query: {}, body: {} },
      { correlationId, environment },
    );
    return organization.id;
  } catch (error) {
    if (error instanceof RpcRefusal && error.reason === 'resource_not_found') return null;
    throw error;
  }
}
