import { System } from '../support/system';

const invalidToken = {
  error: {
    type: 'invalid_consistency_token',
    message: 'The Sesame-Consistency-Token header must be a token a write answered',
    doc_urls: ['http://localhost:8000/how-to-use-api-key#read-your-writes'],
  },
};
const tokenOf = (service: string, position: string | number) => Buffer.from(`${service}:${position}`).toString('base64url');

describe('Sesame-Consistency-Token (read-your-writes across replicas)', () => {
  let system: System;
  let token: string;
  beforeAll(async () => {
    system = await System.start();
    token = await system.token();
  });
  afterAll(async () => {
    await system?.stop();
  });

  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; consistencyToken?: string; auth?: boolean } = {},
  ) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.auth !== false) headers.authorization = `Bearer ${token}`;
    if (options.consistencyToken !== undefined) headers['sesame-consistency-token'] = options.consistencyToken;
    const response = await fetch(`${system.baseUrl}${path}`, {
      method,
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      consistencyToken: response.headers.get('sesame-consistency-token'),
    };
  };

  it('answers a write with a token naming the service and position it reached, and a read with it sees the write', async () => {
    const created = await call('POST', '/api/v2/organizations', { body: { name: `Token ${Date.now()}` } });
    expect(created.status).toBe(201);
    const point = Buffer.from(created.consistencyToken ?? '', 'base64url').toString();
    expect(point).toMatch(/^identity:\d+$/);
    const renamed = await call('PUT', `/api/v2/organizations/${created.body.domain as string}`, {
      body: { name: 'Token Renamed' },
    });
    expect(renamed.status).toBe(200);
    expect(
      Number(
        Buffer.from(renamed.consistencyToken ?? '', 'base64url')
          .toString()
          .split(':')[1],
      ),
    ).toBeGreaterThan(Number(point.split(':')[1]));
    const read = await call('GET', `/api/v2/organizations/${created.body.domain as string}`, {
      consistencyToken: renamed.consistencyToken ?? '',
    });
    expect(read).toMatchObject({ status: 200, body: { name: 'Token Renamed' }, consistencyToken: null });
  });

  it('answers no token to a refused write', async () => {
    const refused = await call('POST', '/api/v2/organizations', { body: {} });
    expect(refused.status).toBe(422);
    expect(refused.consistencyToken).toBeNull();
  });

  it.each([
    ['not base64url', 'not a token!'],
    ['no position', tokenOf('identity', '')],
    ['a negative position', tokenOf('identity', '-3')],
    ['too long', 'a'.repeat(200)],
  ])('refuses a token that is %s with 400 invalid_consistency_token', async (_, consistencyToken) => {
    expect(await call('GET', '/api/v2/organizations', { consistencyToken })).toMatchObject({ status: 400, body: invalidToken });
  });

  it('checks the API key before the token', async () => {
    const answer = await call('GET', '/api/v2/organizations', { consistencyToken: 'not a token!', auth: false });
    expect(answer.status).toBe(401);
  });

  it('does not wait for a token of a service that does not answer the read, and waits at most 2 s for a position not reached', async () => {
    const otherService = Date.now();
    expect((await call('GET', '/api/v2/organizations', { consistencyToken: tokenOf('webhooks', 10 ** 12) })).status).toBe(200);
    expect(Date.now() - otherService).toBeLessThan(1_500);
    const ahead = Date.now();
    expect((await call('GET', '/api/v2/organizations', { consistencyToken: tokenOf('identity', 10 ** 12) })).status).toBe(200);
    expect(Date.now() - ahead).toBeGreaterThanOrEqual(1_900);
  });
});
