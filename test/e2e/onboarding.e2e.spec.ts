import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'nats';
import { System, processEntries, repoRoot } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';
import { inviteAdmin, onboardingCall, onboardingSession, openInvitation, sessionCookieOf } from '../support/admin-invitations';
import { freePort } from '../support/free-port';

const fixtures = join(__dirname, '../../services/auth-methods/src/methods/sso-saml/metadata/fixtures');
const okta = readFileSync(join(fixtures, 'okta.xml'), 'utf8');
const azure = readFileSync(join(fixtures, 'azure-ad.xml'), 'utf8');

const docs = 'http://localhost:8000/it-admin-onboarding';
const fieldErrors = (message: string) => ({ errors: { token: [message] } });
const linkUsed = fieldErrors('has already been used: the link works once, ask for a new one');
const sessionError = (message: string) => ({ error: { type: 'onboarding_session_required', message, doc_urls: [docs] } });
const noSession = sessionError(
  'Open the link of your invitation email: this call needs the onboarding session it opens in your browser',
);
const sessionEnded = sessionError('Your onboarding session has ended: ask for a new invitation link');
const sessionExpired = sessionError('Your onboarding session has expired: ask for a new invitation link');
const crossSite = {
  error: {
    type: 'cross_site_request',
    message: 'Cross-site request refused: only the onboarding page of this Sesame may make this call',
    doc_urls: [docs],
  },
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('IT-admin onboarding page and its invitation endpoints (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  const call = (path: string, session: string | null, body: unknown = {}, headers: Record<string, string> = {}) =>
    onboardingCall(system, 'POST', path, session, body, headers);
  const sso = (session: string | null, body: unknown, headers: Record<string, string> = {}) =>
    onboardingCall(system, 'PUT', 'sso/connection', session, body, headers);
  const connection = (domain = org) => system.request('GET', `/api/v2/org/${domain}/sso-connection`);

  beforeAll(async () => {
    system = await System.start();
    org = await createOrganization(system, 'Onboarding Org', {
      allowed_email_domains: ['onboarding-e2e.example'],
      locale: 'fr-FR',
    });
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('serves the page of the invitation link with headers that keep the token in it', async () => {
    const { link } = await inviteAdmin(system, org, 'page@example.com');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const script = /<script type="module" crossorigin src="(\/onboarding\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    expect(script).toBeDefined();
    const asset = await fetch(`${system.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toContain('/api/v2/admin-invitations');
  });

  it('answers 404 in the documented shape for an asset that is not part of the app', async () => {
    for (const path of ['/onboarding/assets/nope.js', '/onboarding/assets/..%2F..%2Fpackage.json', '/onboarding/other'])
      expect(await system.request('GET', path, { token: null })).toMatchObject({
        status: 404,
        body: { error: { type: 'resource_not_found', message: 'Resource Not Found' } },
      });
  });

  describe('the emailed link', () => {
    it('opens once: a session cookie for this browser only, who is invited, how long the session lasts; records the visit', async () => {
      const { token } = await inviteAdmin(system, org, 'opener@example.com');
      const opened = await openInvitation(system, token);
      expect(opened.status).toBe(200);
      expect(opened.body).toEqual({
        admin: expect.objectContaining({
          __type__: 'Admin',
          email: 'opener@example.com',
          organization: org,
          accepted_invitation_at: null,
          last_login_at: expect.any(String),
        }),
        organization: { domain: org, name: 'Onboarding Org', allowed_email_domains: ['onboarding-e2e.example'], locale: 'fr-FR' },
        allowed_setups: ['sso'],
        session: { expires_at: expect.any(String), idle_timeout_seconds: 1800 },
      });
      expect(Date.parse(opened.body.session.expires_at) - Date.now()).toBeGreaterThan(8 * 3_600_000 - 60_000);
      // HttpOnly (scripts never read it), SameSite=Strict, sent only to the invitation endpoints; not Secure over http.
      expect(sessionCookieOf(opened.headers)?.setCookie).toBe(
        `sesame_onboarding=${opened.session}; Path=/api/v2/admin-invitations; Max-Age=28800; HttpOnly; SameSite=Strict`,
      );
      expect(opened.session).toMatch(new RegExp(`^${opened.body.admin.id}\\.[A-Za-z0-9_-]{43}$`));
      expect(opened.session).not.toBe(token);
      const admin = await system.request('GET', `/api/v2/org/${org}/admins/opener@example.com`);
      expect(admin.body.last_login_at).toBe(opened.body.admin.last_login_at);
      expect(await call('session', opened.session)).toMatchObject({ status: 200, body: opened.body });
    });

    it('is refused when opened a second time, in any browser; the first browser’s session goes on', async () => {
      const { token } = await inviteAdmin(system, org, 'twice.opened@example.com');
      const first = await openInvitation(system, token);
      expect(first.status).toBe(200);
      const second = await openInvitation(system, token);
      expect({ status: second.status, body: second.body, session: second.session }).toEqual({
        status: 422,
        body: linkUsed,
        session: null,
      });
      expect((await call('session', first.session)).status).toBe(200);
    });

    it.each([
      ['no token', undefined, "can't be blank"],
      ['a malformed token', 'garbage', 'is invalid'],
      ['a forged secret', '00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'is invalid'],
    ])('refuses to open with %s', async (_case, token, message) => {
      const refused = await openInvitation(system, token);
      expect({ status: refused.status, body: refused.body, session: refused.session }).toEqual({
        status: 422,
        body: fieldErrors(message),
        session: null,
      });
    });

    it('is replaced by a new invitation: the old link and the session it opened stop working, the new link opens', async () => {
      const first = await inviteAdmin(system, org, 'reinvited@example.com');
      const session = (await openInvitation(system, first.token)).session;
      const unopened = await inviteAdmin(system, org, 'reinvited@example.com');
      expect(await call('session', session)).toMatchObject({ status: 401, body: sessionEnded });
      expect(await openInvitation(system, first.token)).toMatchObject({ status: 422, body: fieldErrors('is invalid') });
      const last = await inviteAdmin(system, org, 'reinvited@example.com');
      expect(await openInvitation(system, unopened.token)).toMatchObject({ status: 422, body: fieldErrors('is invalid') });
      expect(await openInvitation(system, last.token)).toMatchObject({ status: 200 });
    });

    it('is refused from another site (CSRF), and stays unused', async () => {
      const { token } = await inviteAdmin(system, org, 'csrf.open@example.com');
      expect(await openInvitation(system, token, { origin: 'https://evil.example' })).toMatchObject({
        status: 403,
        body: crossSite,
        session: null,
      });
      expect(await openInvitation(system, token, { 'sec-fetch-site': 'cross-site' })).toMatchObject({
        status: 403,
        session: null,
      });
      expect((await openInvitation(system, token)).status).toBe(200);
    });
  });

  describe('the onboarding session', () => {
    it('authorizes the page’s calls; the emailed token does not, even before it is opened', async () => {
      const { token } = await inviteAdmin(system, org, 'token.holder@example.com');
      expect(await call('sso/sp-settings', null, { token })).toMatchObject({ status: 401, body: noSession });
      expect(await sso(null, { token, provider_type: 'okta', metadata: okta })).toMatchObject({ status: 401, body: noSession });
      expect(await call('accept', null, { token })).toMatchObject({ status: 401, body: noSession });
      expect(await call('decline', null, { token })).toMatchObject({ status: 401, body: noSession });
      expect(await call('session', `${token}`)).toMatchObject({ status: 401, body: sessionEnded });
      expect(await connection()).toMatchObject({ status: 404 });
    });

    it('after the set-up is finished (accepted), neither the emailed token nor the session changes the IdP metadata', async () => {
      const finished = await createOrganization(system, 'Finished Onboarding Org');
      const { token } = await inviteAdmin(system, finished, 'finisher@example.com');
      const { session } = await openInvitation(system, token);
      // The token rides along in the bodies, as a page written for invitation tokens sends it: only the session counts.
      expect(await sso(session, { token, provider_type: 'okta', metadata: okta })).toMatchObject({ status: 200 });
      const accepted = await call('accept', session, { token });
      expect(accepted).toMatchObject({
        status: 200,
        body: { email: 'finisher@example.com', accepted_invitation_at: expect.any(String) },
      });
      const before = (await connection(finished)).body;
      // An attacker with the forwarded or archived email, or with the cookie: nothing works any more.
      expect(await sso(null, { token, provider_type: 'custom_saml', metadata: azure })).toMatchObject({
        status: 401,
        body: noSession,
      });
      expect(await sso(session, { provider_type: 'custom_saml', metadata: azure })).toMatchObject({
        status: 401,
        body: sessionEnded,
      });
      expect(await openInvitation(system, token)).toMatchObject({ status: 422, body: linkUsed, session: null });
      expect(await call('accept', session)).toMatchObject({ status: 401, body: sessionEnded });
      expect((await connection(finished)).body).toEqual(before);
      expect(sessionCookieOf(accepted.headers)?.setCookie).toBe(
        'sesame_onboarding=; Path=/api/v2/admin-invitations; Max-Age=0; HttpOnly; SameSite=Strict',
      );
    });

    it('ends when the invitation is declined; the link then says it was declined', async () => {
      const { token } = await inviteAdmin(system, org, 'decliner@example.com');
      const { session } = await openInvitation(system, token);
      const declined = await call('decline', session);
      expect(declined).toMatchObject({ status: 200, body: { declined_to_be_in_charge_at: expect.any(String) } });
      expect(sessionCookieOf(declined.headers)?.value).toBe('');
      expect(await call('sso/sp-settings', session)).toMatchObject({ status: 401, body: sessionEnded });
      expect(await call('accept', session)).toMatchObject({ status: 401, body: sessionEnded });
      expect(await openInvitation(system, token)).toMatchObject({
        status: 422,
        body: fieldErrors('has been declined: ask to be invited again'),
      });
      const admin = await system.request('GET', `/api/v2/org/${org}/admins/decliner@example.com`);
      expect(admin.body).toMatchObject({ accepted_invitation_at: null, declined_to_be_in_charge_at: expect.any(String) });
    });

    it('is revoked by the vendor at once; a link not opened yet is revoked too', async () => {
      const session = await onboardingSession(system, org, 'revoked@example.com');
      const revoke = (email: string, key = system.apiKey) =>
        system.request('POST', `/api/v2/org/${org}/admins/${email}/revoke-onboarding`, { key });
      const revoked = await revoke('revoked@example.com');
      expect(revoked).toMatchObject({ status: 200, body: { __type__: 'Admin', email: 'revoked@example.com' } });
      expect(await call('session', session)).toMatchObject({ status: 401, body: sessionEnded });
      expect(await sso(session, { provider_type: 'okta', metadata: okta })).toMatchObject({ status: 401, body: sessionEnded });
      expect(await revoke('revoked@example.com')).toMatchObject({ status: 200, body: revoked.body });

      const { token } = await inviteAdmin(system, org, 'unopened@example.com');
      expect((await revoke('unopened@example.com')).status).toBe(200);
      expect(await openInvitation(system, token)).toMatchObject({
        status: 422,
        body: fieldErrors('has been revoked: ask for a new link'),
      });
      expect(await revoke('nobody@example.com')).toMatchObject({ status: 404, body: notFound });
    });

    it('is revoked only with a key that may write admins, of the invitation’s environment', async () => {
      const session = await onboardingSession(system, org, 'kept@example.com');
      const path = `/api/v2/org/${org}/admins/kept@example.com/revoke-onboarding`;
      const reader = system.createApiKey('sandbox', ['admins:read']);
      expect(await system.request('POST', path, { key: reader })).toMatchObject({ status: 401, body: unauthorized });
      expect(await system.request('POST', path, { token: null })).toMatchObject({ status: 401, body: unauthorized });
      expect(await system.request('POST', path, { key: system.createApiKey('production') })).toMatchObject({
        status: 404,
        body: notFound,
      });
      expect((await call('session', session)).status).toBe(200);
    });

    it('refuses a session cookie of another invitation, forged or malformed, and none', async () => {
      const other = await createOrganization(system, 'Cookie Jar Org');
      const mine = await onboardingSession(system, org, 'mine@example.com');
      const theirs = await onboardingSession(system, other, 'theirs@example.com');
      const [myAdmin, mySecret] = mine.split('.') as [string, string];
      const [theirAdmin, theirSecret] = theirs.split('.') as [string, string];
      for (const forged of [`${theirAdmin}.${mySecret}`, `${myAdmin}.${theirSecret}`, `${myAdmin}.${'A'.repeat(43)}`])
        expect(await call('sso/connection', forged)).toMatchObject({ status: 401, body: sessionEnded });
      expect(await call('sso/connection', 'not a cookie value')).toMatchObject({ status: 401, body: sessionEnded });
      expect(await call('sso/connection', '')).toMatchObject({ status: 401, body: noSession });
      expect((await call('session', theirs)).body.organization.domain).toBe(other);
      expect((await call('session', mine)).body.organization.domain).toBe(org);
    });

    it('refuses calls from another site (CSRF), and changes nothing', async () => {
      const session = await onboardingSession(system, org, 'csrf.session@example.com');
      const before = await connection();
      const foreign: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'same-site' },
        { origin: 'null' },
      ];
      for (const headers of foreign) {
        expect(await sso(session, { provider_type: 'okta', metadata: okta }, headers)).toMatchObject({
          status: 403,
          body: crossSite,
        });
        expect(await call('decline', session, {}, headers)).toMatchObject({ status: 403, body: crossSite });
      }
      expect(await connection()).toEqual(expect.objectContaining({ status: before.status, body: before.body }));
      expect((await call('session', session)).status).toBe(200);
    });

    it('keeps only hashes of the link and of the session in the event store', async () => {
      const { token } = await inviteAdmin(system, org, 'hashed@example.com');
      const { session } = await openInvitation(system, token);
      const secrets = [token.split('.')[1] as string, (session as string).split('.')[1] as string];
      const nc = await connect(system.natsOptions());
      try {
        const jsm = await nc.jetstreamManager();
        const stream = `${system.prefix}_identity_events`.toUpperCase();
        const { state } = await jsm.streams.info(stream);
        const found: string[] = [];
        for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
          const text = Buffer.from((await jsm.streams.getMessage(stream, { seq })).data).toString('utf8');
          found.push(...secrets.filter((secret) => text.includes(secret)));
        }
        expect(found).toEqual([]);
      } finally {
        await nc.close();
      }
    });
  });

  describe('the SSO set-up a session reaches', () => {
    it('shows our SP values before any connection exists, then creates and updates the connection with the metadata', async () => {
      const session = await onboardingSession(system, org, 'sso.admin@example.com');
      const base = `${system.baseUrl}/sso/saml/${org}_sandbox`;
      expect(await call('sso/sp-settings', session)).toEqual({
        status: 200,
        headers: expect.anything(),
        body: {
          sp_id: `${org}_sandbox`,
          saml_config: {
            acs_url: `${base}/acs`,
            entity_id: `${base}/metadata`,
            cryptr_metadata_url: `${base}/metadata`,
            slo_url: `${base}/slo`,
            slo_response_url: `${base}/slo/response`,
            sso_provider_metadata: null,
          },
          oidc_redirect_uri: `${system.baseUrl}/sso/oidc/${org}_sandbox/callback`,
        },
      });
      expect(await call('sso/connection', session)).toMatchObject({ status: 200, body: { sso_connection: null } });

      const created = await sso(session, { provider_type: 'okta', metadata: okta });
      expect(created).toMatchObject({
        status: 200,
        body: {
          __type__: 'SsoConnection',
          __domain__: org,
          __environment__: 'sandbox',
          provider_type: 'okta',
          metadata: okta.trim(),
          users_access_policy: 'provision_new_users',
          identity_provider: { entity_id: expect.any(String), sso_url: expect.any(String) },
        },
      });
      const updated = await sso(session, { provider_type: 'azure_ad', metadata: azure });
      expect(updated.body).toMatchObject({ id: created.body.id, provider_type: 'azure_ad' });
      expect(updated.body.saml_config.sso_provider_metadata).toBe(
        'https://sts.windows.net/72f988bf-86f1-41af-91ab-2d7cd011db47/',
      );
      expect((await connection()).body).toEqual(updated.body);
      expect((await call('sso/connection', session)).body).toEqual({ sso_connection: updated.body });
    });

    it('reaches only the organization and environment of the invitation, whatever the body says', async () => {
      const other = await createOrganization(system, 'Other Onboarding Org');
      const session = await onboardingSession(system, other, 'scoped.admin@example.com');
      const before = (await connection()).body;
      const answer = await sso(session, {
        provider_type: 'google',
        metadata: okta,
        organization_domain: org,
        environment: 'production',
        admin_id: '00000000-0000-4000-8000-000000000000',
        users_access_policy: 'unregistered_users_allowed',
        active: false,
      });
      expect(answer.body).toMatchObject({
        __domain__: other,
        __environment__: 'sandbox',
        provider_type: 'google',
        users_access_policy: 'provision_new_users',
        active: true,
      });
      expect((await connection()).body).toEqual(before);
    });

    it('refuses bad metadata and missing fields (422 field errors)', async () => {
      const session = await onboardingSession(system, org, 'sloppy.admin@example.com');
      expect(await sso(session, { provider_type: 'okta', metadata: '<md:EntityDescriptor' })).toMatchObject({
        status: 422,
        body: { errors: { metadata: [expect.stringMatching(/^is not valid XML \(.+\)$/)] } },
      });
      expect(await sso(session, { provider_type: 'shibboleth' })).toMatchObject({
        status: 422,
        body: { errors: { provider_type: [expect.any(String)], metadata: ["can't be blank"] } },
      });
    });
  });

  it('keeps sessions in the event store: they outlive a restart, and any gateway and identity replica serves them', async () => {
    const session = await onboardingSession(system, org, 'replicas@example.com');
    await system.restart(['identity', 'gateway']);
    expect((await call('session', session)).status).toBe(200);

    const replicas = await startReplicas(system);
    try {
      const viaReplica = (path: string) =>
        fetch(`${replicas.baseUrl}/api/v2/admin-invitations/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: system.baseUrl, cookie: `sesame_onboarding=${session}` },
          body: '{}',
        });
      const answers = await Promise.all(Array.from({ length: 6 }, () => viaReplica('sso/sp-settings')));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect((await viaReplica('decline')).status).toBe(200);
      expect(await call('session', session)).toMatchObject({ status: 401, body: sessionEnded });
    } finally {
      await replicas.stop();
    }
  });
});

describe('IT-admin onboarding with short lifetimes (all processes, real NATS)', () => {
  let system: System;
  let org: string;
  const call = (path: string, session: string | null) => onboardingCall(system, 'POST', path, session);

  beforeAll(async () => {
    system = await System.start({
      processEnv: {
        identity: {
          SESAME_INVITATION_LINK_TTL_SECONDS: '5',
          SESAME_ONBOARDING_IDLE_SECONDS: '6',
          SESAME_ONBOARDING_MAX_SECONDS: '10',
        },
      },
    });
    org = await createOrganization(system, 'Short Lived Org');
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('says how the link behaves in the email', async () => {
    const { mail } = await inviteAdmin(system, org, 'reader@example.com');
    expect(mail.text).toContain(
      'Opening it starts a session on the set-up page in that browser only: the session ends after 6 seconds without activity, 10 seconds after it started at the latest, and when you finish the set-up or decline.',
    );
    expect(mail.text).toMatch(
      /This link works once, and only until \w+ \d+, \d{4} at \d+:\d\d [AP]M UTC \(5 seconds after it was sent\)\./,
    );
  });

  it('refuses a link opened after its lifetime', async () => {
    const { token } = await inviteAdmin(system, org, 'late@example.com');
    await sleep(5_500);
    expect(await openInvitation(system, token)).toMatchObject({
      status: 422,
      body: fieldErrors('has expired: ask for a new link'),
      session: null,
    });
  });

  it('slides the session with activity, ends it at its latest end anyway, and after the idle time without calls', async () => {
    const [busy, idle] = await Promise.all([
      onboardingSession(system, org, 'busy@example.com'),
      onboardingSession(system, org, 'idle@example.com'),
    ]);
    const opened = Date.now();
    const at = (seconds: number) => sleep(Math.max(0, opened + seconds * 1_000 - Date.now()));
    await at(3);
    expect((await call('sso/sp-settings', busy)).status).toBe(200);
    await at(7.5);
    // Past the first idle end (6 s): the call at 3 s pushed it back.
    expect((await call('sso/sp-settings', busy)).status).toBe(200);
    expect(await call('session', idle)).toMatchObject({ status: 401, body: sessionExpired });
    await at(10.5);
    // 3 s after the last call (less than the idle time), but past the latest end (10 s).
    expect(await call('session', busy)).toMatchObject({ status: 401, body: sessionExpired });
  });
});

/** A second identity process and a second gateway on the same NATS prefix (replicas), stopped by `stop`. */
async function startReplicas(system: System) {
  const ports = { identity: await freePort(), gateway: await freePort() };
  const children = (['identity', 'gateway'] as const).map((name) =>
    spawn(process.execPath, [join(repoRoot, processEntries[name])], {
      cwd: repoRoot,
      env: { ...system.env, SESAME_HTTP_PORT: String(ports[name]) },
      stdio: 'ignore',
    }),
  );
  const stop = async () => {
    await Promise.all(
      children.map((child: ChildProcess) =>
        child.exitCode === null ? new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) : undefined,
      ),
    );
  };
  const ready = (port: number) =>
    fetch(`http://127.0.0.1:${port}/readyz`).then(
      (answer) => answer.ok,
      () => false,
    );
  const started = Date.now();
  while (!((await ready(ports.identity)) && (await ready(ports.gateway)))) {
    if (Date.now() - started > 60_000) {
      await stop();
      throw new Error('replicas not ready');
    }
    await sleep(200);
  }
  return { baseUrl: `http://127.0.0.1:${ports.gateway}`, stop };
}
