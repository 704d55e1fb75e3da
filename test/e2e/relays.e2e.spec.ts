import { createLocalJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually, notFound } from '../support/identity-fixtures';

const callback = 'https://app.acme-relay.example/callback';
const partnerCallback = 'https://partner.example.net/sesame/callback';
const apiDoc = 'http://localhost:8000/api';
const missingAccessToken = {
  error: {
    type: 'missing_access_token',
    message: 'You should provide the current `access_token` of the user you want to redirect.',
    doc_urls: [apiDoc],
  },
};
const missingRelayId = {
  error: { type: 'missing_relay_id', message: 'You should provide a valid `relay_id`.', doc_urls: [apiDoc] },
};
const relaysDoc = 'http://localhost:8000/relays#relay-a-user';
const sourceNotAllowed = {
  status: 403,
  body: {
    error: {
      type: 'relay_source_not_allowed',
      message: "The user's organization is not among the source_organizations of this relay",
      doc_urls: [relaysDoc],
    },
  },
};
const accountNotLinked = {
  status: 403,
  body: {
    error: {
      type: 'relay_account_not_linked',
      message:
        'The partner organization has an account with this email that is not linked to this user, and the email is not verified',
      doc_urls: [relaysDoc],
    },
  },
};

describe('Relays over HTTP (all processes, real NATS)', () => {
  let system: System;
  let acme: string;
  let partner: string;
  let relayId: string;
  let aliceToken: string;

  /** Signs `email` in to `org` with a magic link (self-registering when unknown: email unverified) and answers its access token. */
  const signIn = async (org: string, email: string): Promise<string> => {
    const answer = await system.request('POST', '/api/v2/magic-link-challenge', {
      body: { email, org_domain: org, redirect_uri: callback, find_or_create_user: true },
    });
    expect(answer.status).toBe(201);
    const tokens = await system.request('POST', '/oauth/token', {
      token: null,
      body: {
        grant_type: 'authorization_code',
        code: answer.body.code,
        client_id: system.apiKey.clientId,
        client_secret: system.apiKey.clientSecret,
      },
    });
    expect(tokens.status).toBe(200);
    return tokens.body.access_token as string;
  };
  const basic = (key: ApiKey) => `Basic ${Buffer.from(`${key.clientId}:${key.clientSecret}`).toString('base64')}`;
  /** The partner's exchange of a relay code, authenticated with HTTP Basic (the API key of the sandbox by default). */
  const relayGrant = (code: string, key: ApiKey | null = system.apiKey) =>
    system.request('POST', '/oauth/token', {
      token: null,
      ...(key ? { headers: { authorization: basic(key) } } : {}),
      form: `grant_type=relay&code=${encodeURIComponent(code)}`,
    });
  const relayRequest = (id: string, body: Record<string, unknown>) =>
    system.request('POST', `/api/v2/relays/${id}/request`, { body });
  const createRelay = async (body: Record<string, unknown>) => {
    const created = await system.request('POST', '/api/v2/relays', { body: { partner_redirect_uri: partnerCallback, ...body } });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };
  /** An organization with a magic-link connection, whose users can get access tokens. */
  const sourceOrganization = async (name: string) => {
    const domain = await createOrganization(system, name);
    expect((await system.request('POST', `/api/v2/org/${domain}/magic-link-connection`, { body: {} })).status).toBe(201);
    return domain;
  };
  const partnerUser = (org: string, email: string) => system.request('GET', `/api/v2/org/${org}/users/${email}`);
  /** The partner user as the API shows it (the body alone, to compare before and after). */
  const partnerUserBody = async (org: string, email: string) => (await partnerUser(org, email)).body as Record<string, unknown>;

  beforeAll(async () => {
    system = await System.start();
    acme = await createOrganization(system, 'Acme Relay', { allowed_email_domains: ['acme-relay.com'] });
    partner = await createOrganization(system, 'Partner Co');
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
    await system.request('POST', `/api/v2/org/${acme}/magic-link-connection`, { body: {} });
    aliceToken = await signIn(acme, 'alice@acme-relay.com');
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('refuses a partner organization with allowed email domains, and an unknown partner or source organization', async () => {
    expect(
      await system.request('POST', '/api/v2/relays', { body: { partner_domain: acme, partner_redirect_uri: partnerCallback } }),
    ).toMatchObject({
      status: 422,
      body: { errors: { partner_domain: ['must be an organization without allowed email domains'] } },
    });
    expect(
      await system.request('POST', '/api/v2/relays', {
        body: { partner_domain: 'no-such-org', partner_redirect_uri: partnerCallback },
      }),
    ).toMatchObject({ status: 404, body: notFound });
    expect(
      await system.request('POST', '/api/v2/relays', {
        body: { partner_domain: partner, partner_redirect_uri: partnerCallback, source_organizations: [acme, 'no-such-org'] },
      }),
    ).toMatchObject({ status: 404, body: notFound });
    expect((await system.request('GET', '/api/v2/relays')).body.total).toBe(0);
  });

  it('creates, lists, reads and updates relays', async () => {
    const created = await system.request('POST', '/api/v2/relays', {
      body: { partner_domain: partner, partner_redirect_uri: partnerCallback, jit: true, source_organizations: [acme, acme] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      jit: true,
      organization: partner,
      partner_domain: partner,
      source_organizations: [acme],
      partner_redirect_uri: partnerCallback,
      session_duration_minutes: 60,
    });
    relayId = created.body.id;
    const list = await system.request('GET', '/api/v2/relays?per_page=10');
    expect(list.body).toMatchObject({ data: [created.body], total: 1 });
    expect((await system.request('GET', `/api/v2/relays/${relayId}`)).body).toEqual(created.body);
    const updated = await system.request('PUT', `/api/v2/relays/${relayId}`, { form: 'session_duration_minutes=30' });
    expect(updated).toMatchObject({ status: 200, body: { session_duration_minutes: 30, jit: true } });
    const production = system.createApiKey('production');
    expect(await system.request('GET', `/api/v2/relays/${relayId}`, { key: production })).toMatchObject({
      status: 404,
      body: notFound,
    });
  });

  it('answers 422 missing_access_token and missing_relay_id with the messages of the catalogue', async () => {
    expect(await relayRequest(relayId, {})).toMatchObject({ status: 422, body: missingAccessToken });
    expect(await relayRequest(relayId, { access_token: '  ' })).toMatchObject({ status: 422, body: missingAccessToken });
    expect(await relayRequest(relayId, { access_token: 'not.a.token' })).toMatchObject({ status: 422, body: missingAccessToken });
    const apiKeyToken = await system.token();
    expect(await relayRequest(relayId, { access_token: apiKeyToken })).toMatchObject({ status: 422, body: missingAccessToken });
    expect(await relayRequest('not-a-relay', { access_token: aliceToken })).toMatchObject({ status: 422, body: missingRelayId });
    expect(await relayRequest('00000000-0000-4000-8000-000000000000', { access_token: aliceToken })).toMatchObject({
      status: 422,
      body: missingRelayId,
    });
  });

  it('relays a signed-in user: a one-time code the partner exchanges for tokens of its user (created just in time)', async () => {
    const answer = await relayRequest(relayId, { access_token: aliceToken });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      from_user: expect.stringMatching(/^[0-9a-f-]{36}$/),
      partner_redirect_uri: partnerCallback,
      relay_id: relayId,
      relay_uri: expect.stringContaining(`${partnerCallback}?code=`),
      to_partner_user: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // Created just in time for alice (whose email the magic link sign-up did not verify), linked to her.
    const created = await partnerUser(partner, 'alice@acme-relay.com');
    expect(created).toMatchObject({
      status: 200,
      body: {
        id: answer.body.to_partner_user,
        email_verified: false,
        identities: [
          { provider: 'relay', idp_id: answer.body.from_user, data: { organization_domain: acme, relay_id: relayId } },
        ],
      },
    });
    expect(answer.body.to_partner_user).not.toBe(answer.body.from_user);
    // The link brings her back to the same account, which it leaves as it was (linked once).
    expect(await relayRequest(relayId, { access_token: aliceToken })).toMatchObject({
      status: 201,
      body: { to_partner_user: answer.body.to_partner_user },
    });
    expect((await partnerUser(partner, 'alice@acme-relay.com')).body).toEqual(created.body);

    const code = new URL(answer.body.relay_uri).searchParams.get('code') as string;
    const withoutClient = await relayGrant(code, null);
    expect(withoutClient).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: 'Client authentication failed: the relay grant needs client_secret' },
    });
    expect(withoutClient.headers.get('www-authenticate')).toBe('Basic realm="sesame", charset="UTF-8"');
    const wrongSecret = await relayGrant(code, { ...system.apiKey, clientSecret: 'wrong' });
    expect(wrongSecret).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: 'Client authentication failed' },
    });
    expect(wrongSecret.headers.get('www-authenticate')).toBe('Basic realm="sesame", charset="UTF-8"');
    expect(await relayGrant(code, system.createApiKey('production'))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The relay code is unknown, expired or already used' },
    });
    const tokens = await relayGrant(code);
    // The relay's session_duration_minutes (30 since the update above) bounds every token of the partner session.
    expect(tokens).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer', refresh_token: expect.any(String), expires_in: 1_800 },
    });
    const jwks = createLocalJWKSet(
      (await system.request('GET', '/.well-known/jwks.json', { token: null })).body as JSONWebKeySet,
    );
    const { payload } = await jwtVerify(tokens.body.access_token, jwks, { issuer: `${system.baseUrl}/t/${partner}` });
    expect(payload).toMatchObject({ sub: answer.body.to_partner_user, org: partner, env: 'sandbox', jtt: 'access' });
    const { payload: id } = await jwtVerify(tokens.body.id_token, jwks);
    expect(id).toMatchObject({ sub: answer.body.to_partner_user, email: 'alice@acme-relay.com' });

    expect((payload.exp as number) - (payload.iat as number)).toBe(1_800);
    const refreshed = await system.request('POST', '/oauth/token', {
      token: null,
      headers: { authorization: basic(system.apiKey) },
      form: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }).toString(),
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.expires_in).toBeLessThanOrEqual(1_800);
    expect(refreshed.body.expires_in).toBeGreaterThan(1_700);

    expect(await relayGrant(code)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The relay code is unknown, expired or already used' },
    });
    expect(
      await system.request('POST', '/oauth/token', {
        token: null,
        headers: { authorization: basic(system.apiKey) },
        form: 'grant_type=relay',
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request', error_description: 'code is required' } });
  });

  it('without jit, refuses a user who has no account in the partner organization', async () => {
    await system.request('PUT', `/api/v2/relays/${relayId}`, { body: { jit: false } });
    const bobToken = await signIn(acme, 'bob@acme-relay.com');
    expect(await relayRequest(relayId, { access_token: bobToken })).toMatchObject({
      status: 422,
      body: { errors: { access_token: ['names a user who has no account in the partner organization (the relay has no jit)'] } },
    });
  });

  it('refuses a user of an organization the relay does not accept, creating nothing; a relay without source organizations accepts nobody', async () => {
    const outsider = await sourceOrganization('Outsider Co');
    const carolToken = await signIn(outsider, 'carol@outsider.example');
    expect(await relayRequest(relayId, { access_token: carolToken })).toMatchObject(sourceNotAllowed);
    expect(await partnerUser(partner, 'carol@outsider.example')).toMatchObject({ status: 404 });

    const closed = await createRelay({ partner_domain: partner, jit: true });
    expect((await system.request('GET', `/api/v2/relays/${closed}`)).body.source_organizations).toEqual([]);
    expect(await relayRequest(closed, { access_token: aliceToken })).toMatchObject(sourceNotAllowed);
    const opened = await system.request('PUT', `/api/v2/relays/${closed}`, { form: `source_organizations[]=${outsider}` });
    expect(opened).toMatchObject({ status: 200, body: { source_organizations: [outsider] } });
    expect(await relayRequest(closed, { access_token: carolToken })).toMatchObject({ status: 201 });
    expect(await relayRequest(closed, { access_token: aliceToken })).toMatchObject(sourceNotAllowed);
    expect(
      await system.request('PUT', `/api/v2/relays/${closed}`, { body: { source_organizations: ['no-such-org'] } }),
    ).toMatchObject({ status: 404, body: notFound });
  });

  it('never relays a self-registered, unverified email into the existing account of the same email', async () => {
    const victimEmail = 'victim@corp.example';
    const target = await createOrganization(system, 'Corp Partner');
    const victim = await system.request('POST', `/api/v2/org/${target}/users`, { body: { email: victimEmail } });
    expect(victim.status).toBe(201);
    const signup = await sourceOrganization('Open Signup');
    const relay = await createRelay({ partner_domain: target, source_organizations: [signup], jit: true });

    const attackerToken = await signIn(signup, victimEmail);
    const before = await partnerUserBody(target, victimEmail);
    expect(await relayRequest(relay, { access_token: attackerToken })).toMatchObject(accountNotLinked);
    expect(await partnerUserBody(target, victimEmail)).toEqual(before);

    // The same email, verified in its organization: relayed into the account, which records the link.
    const verifiedOrg = await sourceOrganization('Verified Source');
    const verified = await system.request('POST', `/api/v2/org/${verifiedOrg}/users`, {
      body: { email: victimEmail, email_verified: true },
    });
    expect(verified.status).toBe(201);
    await system.request('PUT', `/api/v2/relays/${relay}`, { body: { source_organizations: [signup, verifiedOrg] } });
    const answer = await relayRequest(relay, { access_token: await signIn(verifiedOrg, victimEmail) });
    expect(answer).toMatchObject({ status: 201, body: { from_user: verified.body.id, to_partner_user: victim.body.id } });
    expect((await partnerUser(target, victimEmail)).body.identities).toEqual([
      expect.objectContaining({ provider: 'relay', idp_id: verified.body.id }),
    ]);
    // The account is not the attacker's for having been reached once by a verified user.
    expect(await relayRequest(relay, { access_token: attackerToken })).toMatchObject(accountNotLinked);
  });

  it('never relays a verified email into an unverified account created just in time for another user', async () => {
    const squatted = 'bob.squatted@corp.example';
    const target = await createOrganization(system, 'Squat Partner');
    const signup = await sourceOrganization('Squat Signup');
    const verifiedOrg = await sourceOrganization('Squat Verified');
    const relay = await createRelay({ partner_domain: target, source_organizations: [signup, verifiedOrg], jit: true });
    const squatter = await relayRequest(relay, { access_token: await signIn(signup, squatted) });
    expect(squatter.status).toBe(201);
    await system.request('POST', `/api/v2/org/${verifiedOrg}/users`, { body: { email: squatted, email_verified: true } });
    const before = await partnerUserBody(target, squatted);
    expect(await relayRequest(relay, { access_token: await signIn(verifiedOrg, squatted) })).toMatchObject(accountNotLinked);
    expect(await partnerUserBody(target, squatted)).toEqual(before);
  });

  it('forgets a deleted organization: a relay into it goes, relays from it stop naming it, and a new organization of its domain gets none of them', async () => {
    const gone = await sourceOrganization('Gone Source');
    const kept = await sourceOrganization('Kept Source');
    const goneUser = await signIn(gone, 'dan@gone-source.example');
    const doomedPartner = await createOrganization(system, 'Doomed Partner');
    const into = await createRelay({ partner_domain: doomedPartner, source_organizations: [gone, kept], jit: true });
    const from = await createRelay({ partner_domain: partner, source_organizations: [gone], jit: true });
    expect(await relayRequest(from, { access_token: goneUser })).toMatchObject({ status: 201 });
    const relay = async (id: string) => system.request('GET', `/api/v2/relays/${id}`);

    expect((await system.request('DELETE', `/api/v2/organizations/${gone}`)).status).toBe(200);
    await eventually(async () => (await relay(from)).body.source_organizations.length === 0);
    expect((await relay(into)).body.source_organizations).toEqual([kept]);
    // Same name, same domain, another organization: the relay was never given to it.
    expect(await sourceOrganization('Gone Source')).toBe(gone);
    const newcomer = await signIn(gone, 'eve@gone-source.example');
    expect(await relayRequest(from, { access_token: newcomer })).toMatchObject(sourceNotAllowed);

    expect((await system.request('DELETE', `/api/v2/organizations/${doomedPartner}`)).status).toBe(200);
    await eventually(async () => (await relay(into)).status === 404);
    expect(await relay(into)).toMatchObject({ status: 404, body: notFound });
    expect((await relay(from)).status).toBe(200);
  });

  it('deletes a relay', async () => {
    const deleted = await system.request('DELETE', `/api/v2/relays/${relayId}`);
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true, resource: { id: relayId } } });
    expect(await system.request('GET', `/api/v2/relays/${relayId}`)).toMatchObject({ status: 404, body: notFound });
    expect(await relayRequest(relayId, { access_token: aliceToken })).toMatchObject({ status: 422, body: missingRelayId });
  });
});
