import { catalogueError } from '@sesame/contracts';
import type { RpcInput, RpcMeta } from '@sesame/contracts';
import type { Authenticator, Principal } from '../auth/authenticator';
import { ApiError } from './api-error';
import { withBearerClient } from './bearer-client';

const principal: Principal = { clientId: 'client-1', environment: 'sandbox', scopes: [] };
/** Accepts `Bearer good`; anything else as the management API does (401), `Bearer down` as 503. */
const authenticator: Pick<Authenticator, 'authenticate'> = {
  authenticate: async (authorization) => {
    if (authorization === 'Bearer good') return principal;
    throw new ApiError(catalogueError(authorization === 'Bearer down' ? 'service_unavailable' : 'unauthorized'));
  },
};
const input = (body: Record<string, unknown>): RpcInput => ({ params: {}, query: {}, body });
const form = { grant_type: 'authorization_code', code: 'c' };

async function refusal(body: Record<string, unknown>, authorization: string): Promise<unknown> {
  try {
    await withBearerClient(input(body), authorization, authenticator, { correlationId: 'r' });
  } catch (error) {
    if (error instanceof ApiError) return error.error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe("an API key's access token as client authentication at the token endpoint", () => {
  it("names the token's key in the meta and the body", async () => {
    const meta: RpcMeta = { correlationId: 'r' };
    expect(await withBearerClient(input(form), 'Bearer good', authenticator, meta)).toEqual(
      input({ ...form, client_id: 'client-1' }),
    );
    expect(meta).toEqual({ correlationId: 'r', clientId: 'client-1', environment: 'sandbox' });
    expect((await withBearerClient(input({ ...form, client_id: 'client-1' }), 'Bearer good', authenticator, meta)).body).toEqual({
      ...form,
      client_id: 'client-1',
    });
  });

  it('leaves requests without a Bearer token, or with a client_secret, as they are', async () => {
    const meta: RpcMeta = { correlationId: 'r' };
    for (const [body, authorization] of [
      [form, undefined],
      [form, 'Basic abc'],
      [{ ...form, client_id: 'client-2', client_secret: 's' }, 'Bearer good'],
    ] as const) {
      const same = input(body);
      expect(await withBearerClient(same, authorization, authenticator, meta)).toBe(same);
    }
    expect(meta).toEqual({ correlationId: 'r' });
  });

  it('answers any invalid token, and a body client_id of another client, as a wrong secret', async () => {
    const wrongClient = { kind: 'oauth', code: 'invalid_client', description: 'Client authentication failed' };
    expect(await refusal(form, 'Bearer forged')).toEqual(wrongClient);
    expect(await refusal(form, 'Bearer')).toEqual(wrongClient);
    expect(await refusal({ ...form, client_id: 'client-2' }, 'Bearer good')).toEqual(wrongClient);
    expect(await refusal(form, 'Bearer down')).toEqual(catalogueError('service_unavailable'));
  });
});
