import { MemoryEventStore } from '@sesame/platform';
import { metadata, signInKit } from './sign-in.spec-kit';

const invalidCode = {
  ok: false,
  error: { kind: 'oauth', code: 'invalid_grant', description: 'The authorization code is invalid, expired or already used' },
};
const invalidRefresh = {
  ok: false,
  error: { kind: 'oauth', code: 'invalid_grant', description: 'The refresh token is invalid, expired or revoked' },
};

describe('authorization codes through the token endpoint', () => {
  let kit: Awaited<ReturnType<typeof signInKit>>;
  let clock: Date;
  beforeEach(async () => {
    clock = new Date();
    kit = await signInKit(new MemoryEventStore(), { now: () => clock });
  });

  const issue = async (userId: string, extra: { nonce?: string; redirectUri?: string } = {}) =>
    kit.codes.issue(
      { environment: 'sandbox', organizationDomain: 'acme', userId, method: 'password', clientId: 'client-1', ...extra },
      metadata(),
    );

  it('exchanges a code once for access, ID and refresh tokens with OpenID Connect claims and the registered metadata', async () => {
    kit.metakeys.push({ name: 'plan', required: false, type: 'string' }, { name: 'iss', required: false, type: 'string' });
    const user = kit.addUser({ metadata: { plan: 'gold', iss: 'forged', unregistered: 'x' } });
    const { code, expires_at } = await issue(user.id, { nonce: 'n-123' });
    expect(code).toMatch(/^[\w-]{43}$/);
    expect(Date.parse(expires_at) - clock.getTime()).toBe(120_000);

    const reply = await kit.token({ grant_type: 'authorization_code', code });
    expect(reply).toEqual({
      ok: true,
      status: 200,
      body: {
        access_token: expect.any(String),
        id_token: expect.any(String),
        refresh_token: expect.stringMatching(/^[0-9a-f-]{36}\.[\w-]{43}$/),
        expires_in: 36_000,
        scope: 'openid email profile',
        token_type: 'Bearer',
      },
    });
    if (!reply.ok) throw new Error('no tokens');
    const id = await kit.verify(reply.body.id_token as string, 'client-1');
    expect(id).toMatchObject({
      iss: 'https://sesame.test/t/acme',
      sub: user.id,
      aud: 'client-1',
      email: 'ada@acme.com',
      email_verified: true,
      nonce: 'n-123',
      given_name: 'Ada',
      family_name: 'Lovelace',
      name: 'Ada Lovelace',
      amr: ['password'],
      jtt: 'openid',
      env: 'sandbox',
      plan: 'gold',
    });
    expect(id).not.toHaveProperty('unregistered');
    expect((id.exp as number) - (id.iat as number)).toBe(36_000);
    const access = await kit.verify(reply.body.access_token, 'client-1');
    expect(access).toMatchObject({ sub: user.id, jtt: 'access', scp: ['openid', 'email', 'profile'], org: 'acme' });

    expect(await kit.token({ grant_type: 'authorization_code', code })).toEqual(invalidCode);
  });

  it('omits the nonce when the sign-in had none', async () => {
    const user = kit.addUser();
    const reply = await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code });
    if (!reply.ok) throw new Error('no tokens');
    expect(await kit.verify(reply.body.id_token as string, 'client-1')).not.toHaveProperty('nonce');
  });

  it('refuses unknown and expired codes, and a missing code', async () => {
    const user = kit.addUser();
    expect(await kit.token({ grant_type: 'authorization_code', code: 'unknown' })).toEqual(invalidCode);
    const { code } = await issue(user.id);
    clock = new Date(clock.getTime() + 120_000);
    expect(await kit.token({ grant_type: 'authorization_code', code })).toEqual(invalidCode);
    expect(await kit.token({ grant_type: 'authorization_code' })).toEqual({
      ok: false,
      error: { kind: 'oauth', code: 'invalid_request', description: 'code is required' },
    });
  });

  it('binds the code to its redirect URI and client', async () => {
    const user = kit.addUser();
    const { code } = await issue(user.id, { redirectUri: 'https://app.acme.com/cb' });
    expect(await kit.token({ grant_type: 'authorization_code', code, redirect_uri: 'https://evil.test/cb' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_grant' },
    });
    expect(await kit.token({ grant_type: 'authorization_code', code, client_id: 'client-2' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_grant', description: 'The authorization code was issued to another client' },
    });
    expect(
      await kit.token({ grant_type: 'authorization_code', code, redirect_uri: 'https://app.acme.com/cb', client_id: 'client-1' }),
    ).toMatchObject({ ok: true });
  });

  it('gives no tokens for a user deactivated or deleted since the sign-in', async () => {
    const user = kit.addUser({ active: false });
    const gone = {
      ok: false,
      error: { kind: 'oauth', code: 'invalid_grant', description: 'The user of this grant no longer exists or is inactive' },
    };
    expect(await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code })).toEqual(gone);
    kit.users.delete(user.id);
    expect(await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code })).toEqual(gone);
  });

  it('rotates refresh tokens, and revokes the family when a rotated one is used again', async () => {
    const user = kit.addUser();
    const first = await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code });
    if (!first.ok) throw new Error('no tokens');
    const second = await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    if (!second.ok) throw new Error('no refresh');
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(await kit.verify(second.body.id_token as string, 'client-1')).toMatchObject({ sub: user.id, amr: ['password'] });
    const third = await kit.token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token });
    if (!third.ok) throw new Error('no refresh');

    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).toEqual(invalidRefresh);
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token })).toEqual(invalidRefresh);
  });

  it('refuses malformed, unknown and missing refresh tokens', async () => {
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: 'nope' })).toEqual(invalidRefresh);
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: `${crypto.randomUUID()}.${'a'.repeat(43)}` })).toEqual(
      invalidRefresh,
    );
    expect(await kit.token({ grant_type: 'refresh_token' })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('revokes the tokens of a code presented again', async () => {
    const user = kit.addUser();
    const { code } = await issue(user.id);
    const first = await kit.token({ grant_type: 'authorization_code', code });
    if (!first.ok) throw new Error('no tokens');
    expect(await kit.token({ grant_type: 'authorization_code', code })).toEqual(invalidCode);
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).toEqual(invalidRefresh);
  });
});
