import { catalogueError, getOrganization, subjects } from '@sesame/contracts';
import type { RpcReply, RpcRequest } from '@sesame/contracts';
import { organizationIdOf } from './organization-id';
import { RpcUnavailableError } from './rpc-unavailable';
import { RpcRefusal, TypedRpcClient } from './typed-rpc-client';

/** Identity as a typed client over a transport that answers `reply`, keeping what it was asked. */
function identity(reply: () => Promise<RpcReply>) {
  const asked: [string, RpcRequest][] = [];
  const client = new TypedRpcClient({
    request: async <T>(subject: string, request: RpcRequest) => {
      asked.push([subject, request]);
      return (await reply()) as RpcReply<T>;
    },
  });
  return { client, asked };
}

describe('organizationIdOf', () => {
  it("asks identity's organization get in the environment and answers the id of the organization it answers", async () => {
    const { client, asked } = identity(async () => ({ ok: true, status: 200, body: getOrganization.examples.response }));
    expect(await organizationIdOf(client, 'acme', 'production', 'c1')).toBe(
      (getOrganization.examples.response as { id: string }).id,
    );
    expect(asked).toEqual([
      [
        subjects.identity.organizations.get,
        {
          meta: { correlationId: 'c1', environment: 'production' },
          input: { params: { org_domain: 'acme' }, query: {}, body: {} },
        },
      ],
    ]);
  });

  it('answers null when identity answers 404', async () => {
    const { client } = identity(async () => ({ ok: false, error: catalogueError('resource_not_found') }));
    expect(await organizationIdOf(client, 'gone', 'sandbox', 'c1')).toBeNull();
  });

  it('throws any other refusal, and no answer as 503', async () => {
    const refused = identity(async () => ({ ok: false, error: catalogueError('unauthorized') }));
    await expect(organizationIdOf(refused.client, 'acme', 'sandbox', 'c1')).rejects.toBeInstanceOf(RpcRefusal);
    const silent = identity(() => Promise.reject(new RpcUnavailableError('x', new Error('TIMEOUT'))));
    await expect(organizationIdOf(silent.client, 'acme', 'sandbox', 'c1')).rejects.toMatchObject({
      error: catalogueError('service_unavailable'),
    });
  });
});
