import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';
import { inviteAdmin, onboardingCall, onboardingSession, openInvitation } from '../support/admin-invitations';

const docs = 'http://localhost:8000/it-admin-onboarding';
const setupNotAllowed = {
  error: {
    type: 'onboarding_setup_not_allowed',
    message: 'Your invitation does not let you set this up: ask the vendor for an invitation that does',
    doc_urls: [docs],
  },
};
const notFound = {
  error: { type: 'resource_not_found', message: 'Resource Not Found', doc_urls: ['http://localhost:8000/api'] },
};
const scimUser = (userName: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName,
  active: true,
  emails: [{ value: userName, type: 'work', primary: true }],
});
const directorySyncSetups = { allowed_setups: ['sso', 'directory_sync'] };

/** Waits for the status to show what a SCIM request recorded (recorded beside the request, not awaited by it). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('IT-admin onboarding: directory sync (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  let otherOrg: string;
  let session: string;
  const call = (path: string, who: string | null, body: unknown = {}) =>
    onboardingCall(system, 'POST', `directory-sync/${path}`, who, body);
  const setUp = (who: string | null, body: unknown) => onboardingCall(system, 'PUT', 'directory-sync/connection', who, body);
  const scim = (directoryId: string, token: string, path: string, body?: unknown) =>
    system.request(body ? 'POST' : 'GET', `/scim/v2/${directoryId}${path}`, {
      token,
      ...(body ? { body } : {}),
      headers: { 'content-type': 'application/scim+json' },
    });
  const status = (who: string) => call('status', who);

  beforeAll(async () => {
    system = await System.start();
    org = await createOrganization(system, 'Directory Onboarding Org', { allowed_email_domains: ['dir-onboarding.example'] });
    otherOrg = await createOrganization(system, 'Directory Onboarding Other', {
      allowed_email_domains: ['dir-onboarding-other.example'],
    });
    session = await onboardingSession(system, org, 'it@dir-onboarding.example', directorySyncSetups);
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('tells the page what the invitation allows; SSO only when the vendor says nothing', async () => {
    expect((await call('../session', session)).body.allowed_setups).toEqual(['sso', 'directory_sync']);
    const { token } = await inviteAdmin(system, org, 'sso.only@dir-onboarding.example');
    expect((await openInvitation(system, token)).body.allowed_setups).toEqual(['sso']);
    expect(
      await system.request('POST', `/api/v2/org/${org}/admins`, { body: { email: 'x@y.example', allowed_setups: ['billing'] } }),
    ).toMatchObject({
      status: 422,
      body: { errors: { 'allowed_setups.0': ['must be one of sso, directory_sync, domains'] } },
    });
    expect(
      await system.request('POST', `/api/v2/org/${org}/admins`, { body: { email: 'x@y.example', allowed_setups: [] } }),
    ).toMatchObject({
      status: 422,
      body: { errors: { allowed_setups: ['must name at least one setup'] } },
    });
  });

  it('sets up the directory sync: SCIM base URL and a token shown once, which provisions; the status shows it', async () => {
    expect(await call('connection', session)).toMatchObject({ status: 200, body: { directory_sync: null } });
    expect(await call('status', session)).toEqual(expect.objectContaining({ status: 404, body: notFound }));
    const created = await setUp(session, { provider_type: 'okta' });
    expect(created.status).toBe(200);
    const directory = created.body;
    expect(directory).toMatchObject({
      __type__: 'DirectorySync',
      __domain__: org,
      __environment__: 'sandbox',
      active: true,
      provider_type: 'okta',
      scim_base_url: `${system.baseUrl}/scim/v2/${directory.id}`,
      auth_secret_token: { value: expect.stringMatching(/^scim_/) },
    });
    const token = directory.auth_secret_token.value as string;
    // Never answered again: not by a read, not by a second set-up (which changes the provider only).
    expect((await call('connection', session)).body.directory_sync.auth_secret_token.value).toBeNull();
    const again = await setUp(session, { provider_type: 'azure_ad' });
    expect(again).toMatchObject({
      status: 200,
      body: { id: directory.id, provider_type: 'azure_ad', auth_secret_token: { value: null } },
    });
    expect(JSON.stringify(again.body)).not.toContain(token);
    // The vendor sees the same directory sync through the API.
    expect((await system.request('GET', `/api/v2/org/${org}/directory-sync`)).body.id).toBe(directory.id);

    const fresh = await status(session);
    expect(fresh).toMatchObject({
      status: 200,
      body: {
        directory_sync_id: directory.id,
        last_request_at: null,
        users_provisioned: 0,
        groups_provisioned: 0,
        last_error: null,
      },
    });
    const before = Date.now();
    expect((await scim(directory.id, token, '/Users', scimUser('ada@dir-onboarding.example'))).status).toBe(201);
    expect(
      (
        await scim(directory.id, token, '/Groups', {
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
          displayName: 'Engineers',
        })
      ).status,
    ).toBe(201);
    const seen = await eventually(
      () => status(session),
      (answer) => answer.body.last_request_at !== null,
    );
    expect(seen.body).toMatchObject({ users_provisioned: 1, groups_provisioned: 1, last_error: null });
    expect(Date.parse(seen.body.last_request_at)).toBeGreaterThanOrEqual(before - 1_000);

    // A refused request is the last error.
    const refused = await scim(directory.id, token, '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'] });
    expect(refused.status).toBe(400);
    const failed = await eventually(
      () => status(session),
      (answer) => answer.body.last_error !== null,
    );
    expect(failed.body.last_error).toEqual({ at: expect.any(String), status: 400, detail: refused.body.detail });
  });

  it('rotates the token: the new one works, the old one stops at once; the new value is not answered again', async () => {
    const current = (await call('connection', session)).body.directory_sync;
    const rotated = await call('rotate-token', session);
    expect(rotated).toMatchObject({
      status: 200,
      body: { id: current.id, auth_secret_token: { value: expect.stringMatching(/^scim_/) } },
    });
    const token = rotated.body.auth_secret_token.value as string;
    expect(rotated.body.auth_secret_token.hint).toBe(token.slice(-4));
    expect((await scim(current.id, token, '/Users')).status).toBe(200);
    const rotatedAgain = await call('rotate-token', session);
    const newest = rotatedAgain.body.auth_secret_token.value as string;
    expect(newest).not.toBe(token);
    expect(await scim(current.id, token, '/Users')).toMatchObject({
      status: 401,
      body: { detail: 'Authentication failed: the bearer token is not the one of this directory sync' },
    });
    expect((await scim(current.id, newest, '/Users')).status).toBe(200);
    const read = await call('connection', session);
    expect(JSON.stringify(read.body)).not.toContain(newest);
    expect(JSON.stringify(await status(session))).not.toContain(newest);
    const failed = await eventually(
      () => status(session),
      (answer) => answer.body.last_error?.status === 401,
    );
    expect(failed.body.last_error.detail).toBe('Authentication failed: the bearer token is not the one of this directory sync');
  });

  it('refuses every directory-sync call of an admin invited for SSO only, and changes nothing', async () => {
    const ssoOnly = await onboardingSession(system, otherOrg, 'sso@dir-onboarding-other.example');
    const calls = [
      () => call('connection', ssoOnly),
      () => setUp(ssoOnly, { provider_type: 'generic' }),
      () => call('rotate-token', ssoOnly),
      () => call('status', ssoOnly),
    ];
    for (const send of calls) expect(await send()).toEqual(expect.objectContaining({ status: 403, body: setupNotAllowed }));
    expect((await system.request('GET', `/api/v2/org/${otherOrg}/directory-sync`)).status).toBe(404);
    // Its SSO calls still work; an invitation for directory sync only cannot reach SSO.
    expect((await onboardingCall(system, 'POST', 'sso/sp-settings', ssoOnly)).status).toBe(200);
    const directoryOnly = await onboardingSession(system, otherOrg, 'scim@dir-onboarding-other.example', {
      allowed_setups: ['directory_sync'],
    });
    expect(await onboardingCall(system, 'POST', 'sso/sp-settings', directoryOnly)).toEqual(
      expect.objectContaining({ status: 403, body: setupNotAllowed }),
    );
    expect((await call('connection', directoryOnly)).status).toBe(200);
  });

  it('keeps each admin to their own organization: the scope comes from the session, never from the body', async () => {
    const mine = (await call('connection', session)).body.directory_sync;
    const other = await onboardingSession(system, otherOrg, 'it@dir-onboarding-other.example', directorySyncSetups);
    const smuggled = { organization_domain: org, environment: 'sandbox' };
    expect(await call('connection', other, smuggled)).toMatchObject({ status: 200, body: { directory_sync: null } });
    expect((await call('status', other, smuggled)).status).toBe(404);
    expect((await call('rotate-token', other, smuggled)).status).toBe(404);
    const theirs = await setUp(other, { provider_type: 'jumpcloud', ...smuggled });
    expect(theirs).toMatchObject({ status: 200, body: { __domain__: otherOrg, provider_type: 'jumpcloud' } });
    expect(theirs.body.id).not.toBe(mine.id);
    const after = (await call('connection', session)).body.directory_sync;
    expect(after).toEqual(mine);
    // Its token does not open this organization's directory.
    expect((await scim(mine.id, theirs.body.auth_secret_token.value, '/Users')).status).toBe(401);
  });

  it('refuses without a session, and a provider the page does not offer', async () => {
    expect((await call('connection', null)).status).toBe(401);
    expect(await setUp(session, { provider_type: 'ping_one' })).toMatchObject({
      status: 422,
      body: { errors: { provider_type: ['must be one of azure_ad, okta, onelogin, jumpcloud, generic'] } },
    });
  });
});
