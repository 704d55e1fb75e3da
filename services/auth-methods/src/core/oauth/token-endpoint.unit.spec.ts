import { createLogger } from '@sesame/platform';
import type { RequestContext } from '@sesame/platform';
import { TokenEndpoint } from './token-endpoint';
import type { TokenClient } from './token-endpoint';

const context: RequestContext = { meta: { correlationId: 'test' }, logger: createLogger('test', 'silent') };
const token = { access_token: 'a', expires_in: 60, scope: '', token_type: 'Bearer' as const };

describe('token endpoint', () => {
  const endpoint = new TokenEndpoint();
  const seen: Array<{ grant: string; client: TokenClient | null }> = [];
  const actors: unknown[] = [];
  endpoint.register('authorization_code', async (request, grantContext, client) => {
    seen.push({ grant: request.grant_type, client });
    actors.push(grantContext.meta.actor);
    return { ok: true, status: 200, body: token };
  });
  endpoint.register('client_credentials', async (_request, _context, client) => {
    seen.push({ grant: 'client_credentials', client });
    return { ok: true, status: 200, body: token };
  });
  endpoint.authenticateClientsWith(async (clientId, secret) =>
    clientId === 'client-1' && secret === 's3cret' ? { client_id: 'client-1', environment: 'sandbox' } : null,
  );
  const handle = (body: Record<string, string>) => endpoint.handle({ body: body as never }, context);
  const invalidClient = {
    ok: false,
    error: { kind: 'oauth', code: 'invalid_client', description: 'Client authentication failed' },
  };

  it('dispatches on grant_type and refuses unknown grants', async () => {
    expect(await handle({ grant_type: 'authorization_code', code: 'c' })).toMatchObject({ ok: true });
    expect(await handle({ grant_type: 'password' })).toEqual({
      ok: false,
      error: { kind: 'oauth', code: 'unsupported_grant_type', description: 'grant_type password is not supported' },
    });
  });

  it('authenticates a client that sends its secret before the grant runs, and hands the grant the client', async () => {
    seen.length = 0;
    actors.length = 0;
    expect(await handle({ grant_type: 'authorization_code', client_id: 'client-1', client_secret: 's3cret' })).toMatchObject({
      ok: true,
    });
    expect(await handle({ grant_type: 'authorization_code', client_id: 'client-1' })).toMatchObject({ ok: true });
    expect(await handle({ grant_type: 'authorization_code', client_id: 'client-1', client_secret: 'wrong' })).toEqual(
      invalidClient,
    );
    expect(await handle({ grant_type: 'authorization_code', client_secret: 's3cret' })).toEqual(invalidClient);
    expect(await handle({ grant_type: 'client_credentials', client_id: 'other', client_secret: 'x' })).toMatchObject({
      ok: true,
    });
    expect(seen).toEqual([
      { grant: 'authorization_code', client: { client_id: 'client-1', environment: 'sandbox' } },
      { grant: 'authorization_code', client: null },
      { grant: 'client_credentials', client: null },
    ]); // The API key its secret proved acts for what the grant records; a public client names no one.
    expect(actors.slice(0, 2)).toEqual([{ type: 'api_key', id: 'client-1' }, undefined]);
  });

  it('hands the grant the API key the gateway authenticated with its access token, for authorization_code only', async () => {
    seen.length = 0;
    endpoint.register('refresh_token', async () => ({ ok: true, status: 200, body: token }));
    const byToken: RequestContext = { ...context, meta: { correlationId: 'test', clientId: 'client-1', environment: 'sandbox' } };
    const handleWith = (body: Record<string, string>) => endpoint.handle({ body: body as never }, byToken);
    expect(await handleWith({ grant_type: 'authorization_code', code: 'c', client_id: 'client-1' })).toMatchObject({ ok: true });
    expect(await handleWith({ grant_type: 'refresh_token', refresh_token: 'r' })).toEqual({
      ok: false,
      error: {
        kind: 'oauth',
        code: 'invalid_client',
        description:
          'Client authentication failed: an API access token authenticates the authorization_code grant only; send client_secret',
      },
    });
    // A secret in the body authenticates as always.
    expect(await handleWith({ grant_type: 'authorization_code', client_id: 'client-1', client_secret: 's3cret' })).toMatchObject({
      ok: true,
    });
    expect(seen).toEqual([
      { grant: 'authorization_code', client: { client_id: 'client-1', environment: 'sandbox', accessToken: true } },
      { grant: 'authorization_code', client: { client_id: 'client-1', environment: 'sandbox' } },
    ]);
  });
});
