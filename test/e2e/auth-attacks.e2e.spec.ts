import { System } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';
import { apiKeyClaims, compactJws, foreignRsaKey, hmacSigner, rsaSigner, systemSigningKey } from '../support/forged-tokens';
import type { SigningKey } from '../support/forged-tokens';

/**
 * Forged and stolen-looking bearer tokens against the management API: every one is refused with
 * the exact 401 of SPEC.md section 8, on reads and writes, and nothing is written.
 */
describe('Auth attacks on the management API (all processes, real NATS)', () => {
  let system: System;
  let key: SigningKey;
  beforeAll(async () => {
    system = await System.start();
    key = await systemSigningKey(system);
  });
  afterAll(async () => {
    await system?.stop();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const header = (overrides: Record<string, unknown> = {}) => ({ alg: 'RS256', typ: 'JWT', kid: key.kid, ...overrides });
  const signed = (claims: Record<string, unknown>, headerOverrides: Record<string, unknown> = {}) =>
    compactJws(header(headerOverrides), claims, rsaSigner('RSA-SHA256', key.privateKey));
  const publicPem = () => key.publicKey.export({ format: 'pem', type: 'spki' }) as string;

  const attacks: [string, () => string][] = [
    ['alg none, no signature', () => compactJws(header({ alg: 'none' }), apiKeyClaims(system), () => Buffer.alloc(0))],
    ['alg None with a signature', () => signed(apiKeyClaims(system), { alg: 'None' })],
    [
      'HS256 keyed with the public key (PEM)',
      () => compactJws(header({ alg: 'HS256' }), apiKeyClaims(system), hmacSigner(publicPem())),
    ],
    [
      'HS256 keyed with the public key (JWK JSON)',
      () =>
        compactJws(
          header({ alg: 'HS256' }),
          apiKeyClaims(system),
          hmacSigner(JSON.stringify(key.publicKey.export({ format: 'jwk' }))),
        ),
    ],
    [
      'RS512 with the real key',
      () => compactJws(header({ alg: 'RS512' }), apiKeyClaims(system), rsaSigner('RSA-SHA512', key.privateKey)),
    ],
    [
      'an unknown kid (a foreign key)',
      () => compactJws(header({ kid: 'attacker' }), apiKeyClaims(system), rsaSigner('RSA-SHA256', foreignRsaKey().privateKey)),
    ],
    [
      'no kid, signed by a foreign key',
      () => compactJws(header({ kid: undefined }), apiKeyClaims(system), rsaSigner('RSA-SHA256', foreignRsaKey().privateKey)),
    ],
    [
      'the real kid, signed by a foreign key',
      () => compactJws(header(), apiKeyClaims(system), rsaSigner('RSA-SHA256', foreignRsaKey().privateKey)),
    ],
    [
      'a foreign key embedded in the header (jwk)',
      () => {
        const foreign = foreignRsaKey();
        return compactJws(
          header({ jwk: foreign.publicKey.export({ format: 'jwk' }), kid: undefined }),
          apiKeyClaims(system),
          rsaSigner('RSA-SHA256', foreign.privateKey),
        );
      },
    ],
    ['expired an hour ago', () => signed(apiKeyClaims(system, { iat: now() - 7_200, exp: now() - 3_600 }))],
    ['expired a minute ago', () => signed(apiKeyClaims(system, { exp: now() - 60 }))],
    ['not valid before next hour', () => signed(apiKeyClaims(system, { nbf: now() + 3_600 }))],
    ['no expiry', () => signed(apiKeyClaims(system, { exp: undefined }))],
    ['a wrong audience', () => signed(apiKeyClaims(system, { aud: 'https://api.example.com' }))],
    ['no audience', () => signed(apiKeyClaims(system, { aud: undefined }))],
    ['a wrong issuer', () => signed(apiKeyClaims(system, { iss: 'https://evil.example.com/t/sesame' }))],
    ['another tenant as issuer', () => signed(apiKeyClaims(system, { iss: `${system.baseUrl}/t/acme` }))],
    ['a user access token instead of an API-key token', () => signed(apiKeyClaims(system, { jtt: 'access' }))],
    ['an unknown environment', () => signed(apiKeyClaims(system, { env: 'staging', dbs: 'staging' }))],
    ['no environment', () => signed(apiKeyClaims(system, { env: undefined }))],
    ['no client id', () => signed(apiKeyClaims(system, { cid: undefined }))],
    [
      'a tampered payload (sandbox token turned production)',
      () => tamper(signed(apiKeyClaims(system)), { env: 'production', dbs: 'production' }),
    ],
    [
      'a tampered payload (more scopes)',
      () => tamper(signed(apiKeyClaims(system, { scp: [] })), { scp: ['organizations:read', 'organizations:write'] }),
    ],
    ['a truncated signature', () => signed(apiKeyClaims(system)).slice(0, -10)],
    [
      'a signature of another token',
      () => swapSignature(signed(apiKeyClaims(system)), signed(apiKeyClaims(system, { jti: 'other' }))),
    ],
  ];

  it('accepts a token signed with the real key and the right claims (the forgeries below differ only in what they name)', async () => {
    const read = await system.request('GET', '/api/v2/organizations', { token: signed(apiKeyClaims(system)) });
    expect(read.status).toBe(200);
  });

  it.each(attacks)('refuses %s with the exact 401 on reads and writes, writing nothing', async (_attack, forge) => {
    const token = forge();
    const before = await organizationCount();
    const read = await system.request('GET', '/api/v2/organizations', { token });
    const write = await system.request('POST', '/api/v2/organizations', { token, body: { name: `Forged ${_attack}` } });
    for (const answer of [read, write]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unauthorized);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect(await organizationCount()).toBe(before);
  });

  it.each([
    ['no Authorization header', undefined],
    ['an empty bearer', 'Bearer '],
    ['a Basic header', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['a token that is not a JWT', 'Bearer not-a-token'],
    ['two tokens', () => `Bearer ${signed(apiKeyClaims(system))} ${signed(apiKeyClaims(system))}`],
    ['a token with a header injection', () => `Bearer ${signed(apiKeyClaims(system))}\tx-admin: 1`],
  ])('refuses %s with the exact 401', async (_case, authorization) => {
    const value = typeof authorization === 'function' ? authorization() : authorization;
    const answer = await system.request('GET', '/api/v2/organizations', {
      token: null,
      headers: value === undefined ? {} : { authorization: value },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorized);
  });

  it('keeps environments apart: a sandbox key neither sees nor changes production users, admins or redirect URIs', async () => {
    const production = system.createApiKey('production');
    // Each environment has its own organization of the domain.
    const domain = await createOrganization(system, `Twin Corp ${Date.now()}`);
    expect(await createOrganization(system, domain, {}, production)).toBe(domain);
    const user = await system.request('POST', `/api/v2/org/${domain}/users`, {
      key: production,
      body: { email: 'ada@example.com' },
    });
    const admin = await system.request('POST', `/api/v2/org/${domain}/admins`, {
      key: production,
      body: { email: 'it@example.com' },
    });
    const uri = await system.request('POST', '/api/v2/redirect_uris', {
      key: production,
      body: { url: 'https://prod.example.com/cb' },
    });
    expect([user.status, admin.status, uri.status]).toEqual([201, 201, 201]);

    const sandboxReads = [
      `/api/v2/org/${domain}/users/${user.body.id}`,
      `/api/v2/org/${domain}/users/ada@example.com`,
      `/api/v2/org/${domain}/admins/it@example.com`,
      `/api/v2/redirect_uris/${uri.body.id}`,
    ];
    for (const path of sandboxReads) expect(await system.request('GET', path)).toMatchObject({ status: 404, body: notFound });
    for (const path of [`/api/v2/org/${domain}/users`, `/api/v2/org/${domain}/admins`, '/api/v2/redirect_uris'])
      expect((await system.request('GET', path)).body.total).toBe(0);

    const changes = [
      system.request('PUT', `/api/v2/org/${domain}/users/${user.body.id}`, { body: { email: 'mallory@example.com' } }),
      system.request('DELETE', `/api/v2/org/${domain}/users/${user.body.id}`),
      system.request('DELETE', `/api/v2/org/${domain}/admins/it@example.com`),
      system.request('DELETE', `/api/v2/redirect_uris/${uri.body.id}`),
    ];
    for (const answer of await Promise.all(changes)) expect(answer).toMatchObject({ status: 404, body: notFound });
    const still = await system.request('GET', `/api/v2/org/${domain}/users/${user.body.id}`, { key: production });
    expect(still.body).toMatchObject({ email: 'ada@example.com', __environment__: 'production' });
    expect((await system.request('GET', `/api/v2/org/${domain}/admins/it@example.com`, { key: production })).status).toBe(200);
    expect((await system.request('GET', `/api/v2/redirect_uris/${uri.body.id}`, { key: production })).status).toBe(200);
  });

  it('refuses a token once it expires, even after it was accepted (the verified-token memory honours expiry)', async () => {
    const token = signed(apiKeyClaims(system, { iat: now() - 10, exp: now() + 2 }));
    expect((await system.request('GET', '/api/v2/organizations', { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const late = await system.request('GET', '/api/v2/organizations', { token });
    expect(late).toMatchObject({ status: 401, body: unauthorized });
  });

  async function organizationCount(): Promise<number> {
    const answer = await system.request('GET', '/api/v2/organizations?per_page=1');
    return answer.body.total as number;
  }

  /** Replaces claims in a signed token's payload, keeping its header and signature. */
  function tamper(token: string, claims: Record<string, unknown>): string {
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const changed = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...claims };
    return `${head}.${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
  }

  function swapSignature(token: string, donor: string): string {
    return `${token.split('.').slice(0, 2).join('.')}.${donor.split('.')[2]}`;
  }
});
