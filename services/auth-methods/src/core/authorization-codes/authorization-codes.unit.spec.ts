import { createHash, randomBytes } from 'node:crypto';
import { MemoryEventStore, Metrics, hashSecret, streamName } from '@sesame/platform';
import { authorizationCodeCategory } from './authorization-codes';
import { client1, metadata, signInKit } from './sign-in.spec-kit';
import { accessTokenTtl, parseRefreshToken, refreshTokenFamilyStream } from './user-tokens';

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
  let eventStore: MemoryEventStore;
  beforeEach(async () => {
    clock = new Date();
    eventStore = new MemoryEventStore();
    kit = await signInKit(eventStore, { now: () => clock });
  });

  const issue = async (userId: string, extra: { nonce?: string; redirectUri?: string; codeChallenge?: string } = {}) =>
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

    const reply = await kit.token({ grant_type: 'authorization_code', code, ...client1 });
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

    expect(await kit.token({ grant_type: 'authorization_code', code, ...client1 })).toEqual(invalidCode);
  });

  it('omits the nonce when the sign-in had none', async () => {
    const user = kit.addUser();
    const reply = await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code, ...client1 });
    if (!reply.ok) throw new Error('no tokens');
    expect(await kit.verify(reply.body.id_token as string, 'client-1')).not.toHaveProperty('nonce');
  });

  it('refuses unknown and expired codes, and a missing code', async () => {
    const user = kit.addUser();
    expect(await kit.token({ grant_type: 'authorization_code', code: 'unknown', ...client1 })).toEqual(invalidCode);
    const { code } = await issue(user.id);
    clock = new Date(clock.getTime() + 120_000);
    expect(await kit.token({ grant_type: 'authorization_code', code, ...client1 })).toEqual(invalidCode);
    expect(await kit.token({ grant_type: 'authorization_code', ...client1 })).toEqual({
      ok: false,
      error: { kind: 'oauth', code: 'invalid_request', description: 'code is required' },
    });
  });

  it('binds the code to its redirect URI and client', async () => {
    const user = kit.addUser();
    const { code } = await issue(user.id, { redirectUri: 'https://app.acme.com/cb' });
    expect(
      await kit.token({ grant_type: 'authorization_code', code, redirect_uri: 'https://evil.test/cb', ...client1 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_grant' },
    });
    expect(
      await kit.token({ grant_type: 'authorization_code', code, client_id: 'client-2', client_secret: 'secret-2' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_grant', description: 'The authorization code was issued to another client' },
    });
    expect(
      await kit.token({ grant_type: 'authorization_code', code, redirect_uri: 'https://app.acme.com/cb', ...client1 }),
    ).toMatchObject({ ok: true });
  });

  it('gives no tokens for a user deactivated or deleted since the sign-in', async () => {
    const user = kit.addUser({ active: false });
    const gone = {
      ok: false,
      error: { kind: 'oauth', code: 'invalid_grant', description: 'The user of this grant no longer exists or is inactive' },
    };
    expect(await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code, ...client1 })).toEqual(gone);
    kit.users.delete(user.id);
    expect(await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code, ...client1 })).toEqual(gone);
  });

  it('rotates refresh tokens, and revokes the family when a rotated one is used again', async () => {
    const user = kit.addUser();
    const first = await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code, ...client1 });
    if (!first.ok) throw new Error('no tokens');
    const second = await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 });
    if (!second.ok) throw new Error('no refresh');
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(await kit.verify(second.body.id_token as string, 'client-1')).toMatchObject({ sub: user.id, amr: ['password'] });
    const third = await kit.token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token, ...client1 });
    if (!third.ok) throw new Error('no refresh');

    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 })).toEqual(
      invalidRefresh,
    );
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: third.body.refresh_token, ...client1 })).toEqual(
      invalidRefresh,
    );
  });

  it("puts the sign-in's organization (id and environment) on the envelope of every event of the code and its refresh-token family", async () => {
    const user = kit.addUser();
    const request = { environment: 'sandbox' as const, organizationDomain: 'acme', organizationId: 'org-acme', userId: user.id };
    const { code } = await kit.codes.issue({ ...request, method: 'password', clientId: 'client-1' }, metadata());
    const first = await kit.token({ grant_type: 'authorization_code', code, ...client1 });
    if (!first.ok) throw new Error('no tokens');
    const second = await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 });
    if (!second.ok) throw new Error('no refresh');
    await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 });
    const familyId = parseRefreshToken(first.body.refresh_token as string)?.familyId as string;
    const envelopes = async (stream: string) =>
      (await eventStore.readStream(stream)).events.map((event) => [event.type, event.metadata.tenant]);
    const tenant = { organization_id: 'org-acme', environment: 'sandbox' };
    expect(await envelopes(streamName(authorizationCodeCategory, hashSecret(code)))).toEqual([
      ['AuthorizationCodeIssued', tenant],
      ['AuthorizationCodeRedeemed', tenant],
    ]);
    // Rotations and the revocation name no organization in their data: the family's state does.
    expect(await envelopes(refreshTokenFamilyStream(familyId))).toEqual([
      ['RefreshTokenFamilyStarted', tenant],
      ['RefreshTokenRotated', tenant],
      ['RefreshTokenFamilyRevoked', tenant],
    ]);
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
    const first = await kit.token({ grant_type: 'authorization_code', code, ...client1 });
    if (!first.ok) throw new Error('no tokens');
    expect(await kit.token({ grant_type: 'authorization_code', code, ...client1 })).toEqual(invalidCode);
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 })).toEqual(
      invalidRefresh,
    );
  });

  it('counts the exchanges of magic-link codes: a success, then a failure for the code presented again', async () => {
    const metrics = new Metrics('auth-methods');
    const counted = await signInKit(new MemoryEventStore(), { now: () => clock, metrics });
    const user = counted.addUser();
    const issued = (method: 'magic_link' | 'password') =>
      counted.codes.issue(
        { environment: 'sandbox', organizationDomain: 'acme', userId: user.id, method, clientId: 'client-1' },
        metadata(),
      );
    const { code } = await issued('magic_link');
    expect((await counted.token({ grant_type: 'authorization_code', code, ...client1 })).ok).toBe(true);
    expect(await counted.token({ grant_type: 'authorization_code', code, ...client1 })).toEqual(invalidCode);
    const password = await issued('password');
    expect((await counted.token({ grant_type: 'authorization_code', code: password.code, ...client1 })).ok).toBe(true);
    const signIns = (await metrics.signIns.get()).values.map((v) => [v.labels.method, v.labels.outcome, v.value]);
    expect(signIns).toEqual([
      ['magic_link', 'success', 1],
      ['magic_link', 'failure', 1],
    ]);
  });

  it('signs in a SAML subject without an account: claims from the assertion, identity never asked, refresh works', async () => {
    const subjectId = '3f1c1c9e-6b0a-8d2e-9f00-5a4e3c2b1a09';
    const unregistered = {
      sso_connection_id: 'c0ffee00-0000-4000-8000-000000000001',
      name_id: 'Guest@Partner.test',
      email: 'guest@partner.test',
      email_verified: false,
      profile: { given_name: 'Gus', family_name: 'Guest' },
      attributes: { email: ['guest@partner.test'], email_verified: ['false'], department: ['R&D'] },
    };
    kit.unregisteredAllowedBy.add(unregistered.sso_connection_id);
    const { code } = await kit.codes.issue(
      {
        environment: 'sandbox',
        organizationDomain: 'acme',
        userId: subjectId,
        method: 'sso',
        clientId: 'client-1',
        unregistered,
      },
      metadata(),
    );
    const first = await kit.token({ grant_type: 'authorization_code', code, ...client1 });
    if (!first.ok) throw new Error('no tokens');
    const expected = {
      sub: subjectId,
      email: 'guest@partner.test',
      email_verified: false,
      given_name: 'Gus',
      family_name: 'Guest',
      name: 'Gus Guest',
      attributes: unregistered.attributes,
      amr: ['sso'],
      env: 'sandbox',
    };
    expect(await kit.verify(first.body.id_token as string, 'client-1')).toMatchObject(expected);
    expect(await kit.verify(first.body.access_token, 'client-1')).toMatchObject({ sub: subjectId, email: 'guest@partner.test' });
    const second = await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 });
    if (!second.ok) throw new Error('no refresh');
    expect(await kit.verify(second.body.id_token as string, 'client-1')).toMatchObject(expected);
    expect(kit.users.size).toBe(0);
  });

  it('refuses to refresh a SAML subject without an account once its connection no longer lets it in', async () => {
    const unregistered = {
      sso_connection_id: 'c0ffee00-0000-4000-8000-000000000002',
      name_id: 'guest@partner.test',
      email: 'guest@partner.test',
      email_verified: true,
      profile: {},
      attributes: {},
    };
    kit.unregisteredAllowedBy.add(unregistered.sso_connection_id);
    const request = {
      environment: 'sandbox' as const,
      organizationDomain: 'acme',
      userId: '3f1c1c9e-6b0a-8d2e-9f00-5a4e3c2b1a0a',
      method: 'sso' as const,
      clientId: 'client-1',
      unregistered,
    };
    const first = await kit.token({
      grant_type: 'authorization_code',
      code: (await kit.codes.issue(request, metadata())).code,
      ...client1,
    });
    if (!first.ok) throw new Error('no tokens');
    const pending = (await kit.codes.issue(request, metadata())).code;
    // The connection is deleted (with its organization), deactivated, or stops allowing unregistered users.
    kit.unregisteredAllowedBy.delete(unregistered.sso_connection_id);
    const gone = {
      ok: false,
      error: { kind: 'oauth', code: 'invalid_grant', description: 'The user of this grant no longer exists or is inactive' },
    };
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 })).toEqual(gone);
    expect(await kit.token({ grant_type: 'authorization_code', code: pending, ...client1 })).toEqual(gone);
  });

  const invalidClient = (description: string) => ({ ok: false, error: { kind: 'oauth', code: 'invalid_client', description } });

  it("records each refused exchange of an issued code, with the sign-in's organization and why, never the code nor its proof", async () => {
    const user = kit.addUser();
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const request = { environment: 'sandbox' as const, organizationDomain: 'acme', organizationId: 'org-acme', userId: user.id };
    const { code } = await kit.codes.issue(
      {
        ...request,
        method: 'magic_link',
        clientId: 'client-1',
        codeChallenge: challenge,
        redirectUri: 'https://app.acme.com/cb',
      },
      metadata(),
    );
    const exchange = (fields: Record<string, string>) => kit.token({ grant_type: 'authorization_code', code, ...fields });
    const wrongVerifier = randomBytes(48).toString('base64url');
    // The answers are the refusals as they always were.
    expect(await exchange({ client_id: 'client-1' })).toMatchObject({ ok: false, error: { code: 'invalid_grant' } });
    expect(await exchange({ client_id: 'client-1', code_verifier: wrongVerifier })).toMatchObject({
      ok: false,
      error: { description: 'code_verifier does not match the code_challenge of the authorization code' },
    });
    expect(await exchange({ client_id: 'client-2', code_verifier: verifier })).toMatchObject({
      ok: false,
      error: { description: 'The authorization code was issued to another client' },
    });
    expect(
      await exchange({ client_id: 'client-1', code_verifier: verifier, redirect_uri: 'https://evil.test/cb' }),
    ).toMatchObject({
      ok: false,
      error: { description: 'redirect_uri does not match the one the authorization code was issued for' },
    });
    expect(await exchange({ client_id: 'client-1', code_verifier: verifier })).toMatchObject({ ok: true });
    expect(await exchange({ client_id: 'client-1', code_verifier: verifier })).toEqual(invalidCode);
    clock = new Date(clock.getTime() + 3_600_000);
    const { code: expired } = await kit.codes.issue({ ...request, method: 'password', clientId: 'client-1' }, metadata());
    clock = new Date(clock.getTime() + 120_000);
    expect(await kit.token({ grant_type: 'authorization_code', code: expired, ...client1 })).toEqual(invalidCode);
    // An unknown code names no organization: nothing is recorded.
    expect(await kit.token({ grant_type: 'authorization_code', code: 'unknown', ...client1 })).toEqual(invalidCode);

    const failures = async (of: string) =>
      (await eventStore.readStream(streamName('codeExchangeFailures', hashSecret(of)))).events.map((event) => ({
        type: event.type,
        data: event.data,
        tenant: event.metadata.tenant,
      }));
    const session = { environment: 'sandbox', organization_domain: 'acme', organization_id: 'org-acme', user_id: user.id };
    const failed = (method: string, reason: string) => ({
      type: 'AuthorizationCodeExchangeFailed',
      data: { ...session, method, client_id: 'client-1', reason, at: expect.any(String) },
      tenant: { organization_id: 'org-acme', environment: 'sandbox' },
    });
    expect(await failures(code)).toEqual(
      ['code_verifier_missing', 'code_verifier_mismatch', 'other_client', 'redirect_uri_mismatch', 'already_used'].map((reason) =>
        failed('magic_link', reason),
      ),
    );
    expect(await failures(expired)).toEqual([failed('password', 'expired')]);
    expect(await failures('unknown')).toEqual([]);
    const stored = JSON.stringify(await Promise.all([failures(code), failures(expired)]));
    for (const secret of [code, expired, verifier, wrongVerifier, 'secret-1']) expect(stored).not.toContain(secret);
  });

  it('records at most 10 refusals of one code, and keeps refusing it as before', async () => {
    const user = kit.addUser();
    const { code } = await issue(user.id);
    for (let attempt = 0; attempt < 12; attempt++)
      expect(
        await kit.token({ grant_type: 'authorization_code', code, client_id: 'client-2', client_secret: 'secret-2' }),
      ).toMatchObject({
        ok: false,
        error: { description: 'The authorization code was issued to another client' },
      });
    const { events } = await eventStore.readStream(streamName('codeExchangeFailures', hashSecret(code)));
    expect(events).toHaveLength(10);
  });

  it('needs the client that started the sign-in to authenticate when the code has no code_challenge', async () => {
    const user = kit.addUser();
    const { code } = await issue(user.id);
    expect(await kit.token({ grant_type: 'authorization_code', code, client_id: 'client-1' })).toEqual(
      invalidClient('Client authentication failed: send client_secret, or use PKCE'),
    );
    expect(await kit.token({ grant_type: 'authorization_code', code, client_id: 'client-1', client_secret: 'wrong' })).toEqual(
      invalidClient('Client authentication failed'),
    );
    expect(await kit.token({ grant_type: 'authorization_code', code, client_id: 'prod-1', client_secret: 'secret-p' })).toEqual({
      ok: false,
      error: { kind: 'oauth', code: 'invalid_grant', description: 'The authorization code was issued to another client' },
    });
    expect(await kit.token({ grant_type: 'authorization_code', code, ...client1 })).toMatchObject({ ok: true });
  });

  it('exchanges a PKCE code for a public client with its code_verifier (S256), without a secret', async () => {
    const user = kit.addUser();
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const { code } = await issue(user.id, { codeChallenge: challenge });
    const exchange = (fields: Record<string, string>) => kit.token({ grant_type: 'authorization_code', code, ...fields });
    expect(await exchange({ client_id: 'client-1' })).toEqual({
      ok: false,
      error: {
        kind: 'oauth',
        code: 'invalid_grant',
        description: 'code_verifier is required: the authorization code was issued with a code_challenge',
      },
    });
    expect(await exchange({ client_id: 'client-1', code_verifier: randomBytes(48).toString('base64url') })).toEqual({
      ok: false,
      error: {
        kind: 'oauth',
        code: 'invalid_grant',
        description: 'code_verifier does not match the code_challenge of the authorization code',
      },
    });
    const tokens = await exchange({ client_id: 'client-1', code_verifier: verifier });
    if (!tokens.ok) throw new Error(JSON.stringify(tokens));
    expect(await kit.verify(tokens.body.id_token as string, 'client-1')).toMatchObject({ sub: user.id });

    // A public family refreshes by rotation alone, for its own client only.
    const refreshed = await kit.token({
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      client_id: 'client-1',
    });
    if (!refreshed.ok) throw new Error(JSON.stringify(refreshed));
    expect(
      await kit.token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: 'client-2' }),
    ).toEqual({
      ok: false,
      error: { kind: 'oauth', code: 'invalid_grant', description: 'The refresh token was issued to another client' },
    });
  });

  it('refreshes the tokens of a confidential client only with its authentication', async () => {
    const user = kit.addUser();
    const first = await kit.token({ grant_type: 'authorization_code', code: (await issue(user.id)).code, ...client1 });
    if (!first.ok) throw new Error('no tokens');
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).toEqual(
      invalidClient('Client authentication failed: this refresh token was issued to an authenticated client'),
    );
    expect(
      await kit.token({
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token,
        client_id: 'client-2',
        client_secret: 'secret-2',
      }),
    ).toEqual({
      ok: false,
      error: { kind: 'oauth', code: 'invalid_grant', description: 'The refresh token was issued to another client' },
    });
    expect(await kit.token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token, ...client1 })).toMatchObject({
      ok: true,
    });
  });
});

describe('tokens of a bounded session (a relay)', () => {
  it('cuts the access token lifetime to what is left of the session, to the second', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
    expect(accessTokenTtl(36_000, null, now)).toBe(36_000);
    expect(accessTokenTtl(36_000, at(1_800_000 - 5), now)).toBe(1_800);
    expect(accessTokenTtl(900, at(1_800_000), now)).toBe(900);
    expect(accessTokenTtl(36_000, at(-1_000), now)).toBe(1);
  });

  it('starts a family that neither signs nor refreshes past the end of the session', async () => {
    const start = Math.floor(Date.now() / 1_000) * 1_000;
    const later = (minutes: number) => new Date(start + minutes * 60_000);
    let clock = later(0);
    const kit = await signInKit(new MemoryEventStore(), { now: () => clock });
    const user = kit.addUser();
    const session = {
      environment: 'sandbox' as const,
      organization_domain: 'acme',
      user_id: user.id,
      method: 'relay' as const,
      client_id: 'client-1',
      scope: 'openid email profile',
      nonce: null,
      authenticated_at: Math.floor(clock.getTime() / 1_000),
    };
    const sessionExpiresAt = later(30).toISOString();
    const started = await kit.tokens.start(session, metadata(), { confidential: true, sessionExpiresAt });
    expect(started.expires_in).toBe(1_800);
    const access = await kit.verify(started.access_token, 'client-1');
    expect((access.exp as number) - (access.iat as number)).toBe(1_800);

    clock = later(20);
    const refreshed = await kit.token({
      grant_type: 'refresh_token',
      refresh_token: started.refresh_token as string,
      ...client1,
    });
    expect(refreshed).toMatchObject({ ok: true, body: { expires_in: 600 } });
    if (!refreshed.ok) throw new Error('no refresh');
    clock = later(30);
    expect(
      await kit.token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token as string, ...client1 }),
    ).toEqual(invalidRefresh);
  });
});
