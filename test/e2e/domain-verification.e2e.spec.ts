import { onboardingCall, onboardingSession } from '../support/admin-invitations';
import { LocalDnsServer } from '../support/dns-server';
import { createOrganization, eventually, notFound } from '../support/identity-fixtures';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { WebhookReceiver } from '../support/webhook-receiver';

const docs = 'http://localhost:8000';
const catalogueError = (type: string, message: string, docPath: string) => ({
  error: { type, message, doc_urls: [`${docs}${docPath}`] },
});
const recordName = (emailDomain: string) => `_sesame-verification.${emailDomain}`;
const notFoundMessage = (emailDomain: string) =>
  catalogueError(
    'domain_verification_record_not_found',
    `No TXT record at ${recordName(emailDomain)}: publish the record of the verification, then verify again (a new record can take a few minutes to reach every DNS server)`,
    '/domain-verification#troubleshooting',
  );
const mismatch = (emailDomain: string) =>
  catalogueError(
    'domain_verification_record_mismatch',
    `The TXT records at ${recordName(emailDomain)} do not hold this verification's value: publish the value the verification answered, exactly`,
    '/domain-verification#troubleshooting',
  );
const verifiedElsewhere = catalogueError(
  'domain_verified_by_another_organization',
  'Another organization of this environment has verified this domain: it must remove the domain from its allowed_email_domains, or be deleted, before this one can verify it',
  '/domain-verification#one-organization-per-verified-domain',
);
const unverifiedRouting = {
  errors: {
    org_domain: [
      'is required: no organization has verified the domain of this email (in production, only verified domains route by email)',
    ],
  },
};

interface DeliveredEvent {
  code: string;
  data: Record<string, unknown>;
  __domain__: string;
  __environment__: string;
}

/**
 * Verified email domains (issue 20): the TXT record `sesame-verification=<token>` at
 * `_sesame-verification.<domain>`, read by the identity service from a DNS server this test runs
 * on 127.0.0.1 (`SESAME_DNS_SERVERS`); the vendor's assertion with a production key; one
 * organization per verified domain in an environment; routing by email in production through
 * verified domains only.
 */
describe('Domain verification (all processes, real NATS, a local DNS server)', () => {
  let dns: LocalDnsServer;
  let receiver: WebhookReceiver;
  let system: System;
  let production: ApiKey;

  beforeAll(async () => {
    dns = await LocalDnsServer.start();
    receiver = await WebhookReceiver.start();
    system = await System.start({
      processEnv: { identity: { SESAME_DNS_SERVERS: dns.server }, webhooks: { SESAME_WEBHOOK_POLL_MS: '100' } },
    });
    production = system.createApiKey('production');
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
    await dns?.stop();
  });

  const call = (method: string, path: string, key?: ApiKey, body?: unknown) =>
    system.request(method, path, { ...(key ? { key } : {}), ...(body === undefined ? {} : { body }) });
  const domains = (org: string, key: ApiKey = production) => call('GET', `/api/v2/organizations/${org}/domains`, key);
  const start = (org: string, emailDomain: string, key: ApiKey = production) =>
    call('POST', `/api/v2/organizations/${org}/domains/${emailDomain}/verification`, key);
  const verify = (org: string, emailDomain: string, key: ApiKey = production) =>
    call('POST', `/api/v2/organizations/${org}/domains/${emailDomain}/verify`, key);
  const assert = (org: string, emailDomain: string, key: ApiKey = production) =>
    call('POST', `/api/v2/organizations/${org}/domains/${emailDomain}/assert`, key);
  const startedRecord = async (org: string, emailDomain: string, key: ApiKey = production) => {
    const started = await start(org, emailDomain, key);
    expect(started.status).toBe(200);
    return started.body.record.value as string;
  };

  it('starts a verification: the TXT record to publish, the same when started again', async () => {
    const org = await createOrganization(system, 'Verify Start', { allowed_email_domains: ['start.verify.example'] }, production);
    expect(await domains(org)).toMatchObject({
      status: 200,
      body: {
        data: [
          {
            __type__: 'DomainVerification',
            __domain__: org,
            __environment__: 'production',
            email_domain: 'start.verify.example',
            status: 'unverified',
            method: null,
            record: null,
            last_failure: null,
            started_at: null,
            verified_at: null,
          },
        ],
      },
    });
    const started = await start(org, 'start.verify.example');
    expect(started).toMatchObject({
      status: 200,
      body: {
        __type__: 'DomainVerification',
        email_domain: 'start.verify.example',
        status: 'pending',
        method: null,
        record: {
          type: 'TXT',
          name: '_sesame-verification.start.verify.example',
          value: expect.stringMatching(/^sesame-verification=[\w-]{22}$/),
        },
        last_failure: null,
        started_at: expect.any(String),
        verified_at: null,
      },
    });
    expect((await start(org, 'START.verify.example')).body).toEqual(started.body);
    expect((await domains(org)).body.data).toEqual([started.body]);
  });

  it('verifies the domain once its TXT record is published, and answers each failure with its reason', async () => {
    const org = await createOrganization(system, 'Verify Dns', { allowed_email_domains: ['dns.verify.example'] }, production);
    const value = await startedRecord(org, 'dns.verify.example');
    const name = recordName('dns.verify.example');

    expect(await verify(org, 'dns.verify.example')).toMatchObject({ status: 422, body: notFoundMessage('dns.verify.example') });
    expect(dns.questions).toContain(name);

    dns.publishTxt(name, 'sesame-verification=not-the-token-of-this-organization');
    dns.publishTxt(name, 'v=spf1 -all');
    expect(await verify(org, 'dns.verify.example')).toMatchObject({ status: 422, body: mismatch('dns.verify.example') });

    dns.breakName(name);
    expect(await verify(org, 'dns.verify.example')).toMatchObject({
      status: 422,
      body: catalogueError(
        'domain_verification_lookup_failed',
        `The DNS lookup of ${name} failed: retry in a moment`,
        '/domain-verification#troubleshooting',
      ),
    });
    expect((await domains(org)).body.data[0]).toMatchObject({
      status: 'pending',
      last_failure: { reason: 'lookup_failed', at: expect.any(String) },
    });

    dns.remove(name);
    // A long record comes as several strings: they are joined.
    dns.publishTxt(name, [value.slice(0, 10), value.slice(10)]);
    const verified = await verify(org, 'dns.verify.example');
    expect(verified).toMatchObject({
      status: 200,
      body: { email_domain: 'dns.verify.example', status: 'verified', method: 'dns_txt', verified_at: expect.any(String) },
    });
    // Verified stays verified: the record may go.
    dns.remove(name);
    expect(await verify(org, 'dns.verify.example')).toMatchObject({ status: 200, body: { status: 'verified' } });
    expect((await domains(org)).body.data).toEqual([verified.body]);
  });

  it('refuses a domain not started, not allowed or malformed, without asking the DNS', async () => {
    const org = await createOrganization(
      system,
      'Verify Refusals',
      { allowed_email_domains: ['refusals.verify.example'] },
      production,
    );
    const asked = dns.questions.length;
    expect(await verify(org, 'refusals.verify.example')).toMatchObject({
      status: 422,
      body: catalogueError(
        'domain_verification_not_started',
        'No verification of this domain was started: start one to get the TXT record to publish',
        '/domain-verification',
      ),
    });
    const notAllowed = { errors: { email_domain: ["must be one of the organization's allowed_email_domains"] } };
    expect(await start(org, 'elsewhere.verify.example')).toMatchObject({ status: 422, body: notAllowed });
    expect(await verify(org, 'elsewhere.verify.example')).toMatchObject({ status: 422, body: notAllowed });
    expect(await start(org, 'not_a_domain')).toMatchObject({
      status: 422,
      body: { errors: { email_domain: ['is not a valid domain name'] } },
    });
    expect(dns.questions.length).toBe(asked);
  });

  it("answers 404 for another environment's organization and for an organization that does not exist", async () => {
    const org = await createOrganization(
      system,
      'Verify Tenant',
      { allowed_email_domains: ['tenant.verify.example'] },
      production,
    );
    await startedRecord(org, 'tenant.verify.example');
    const sandbox = system.apiKey;
    for (const answer of [
      await domains(org, sandbox),
      await start(org, 'tenant.verify.example', sandbox),
      await verify(org, 'tenant.verify.example', sandbox),
      await assert(org, 'tenant.verify.example', sandbox),
      await start('no-such-organization', 'tenant.verify.example'),
      await verify('no-such-organization', 'tenant.verify.example'),
    ])
      expect(answer).toMatchObject({ status: 404, body: notFound });
    expect((await domains(org)).body.data[0].status).toBe('pending');
  });

  it("does not verify an organization with another organization's token", async () => {
    const first = await createOrganization(
      system,
      'Verify Token One',
      { allowed_email_domains: ['token.verify.example'] },
      production,
    );
    const second = await createOrganization(
      system,
      'Verify Token Two',
      { allowed_email_domains: ['token.verify.example'] },
      production,
    );
    const firstValue = await startedRecord(first, 'token.verify.example');
    const secondValue = await startedRecord(second, 'token.verify.example');
    expect(secondValue).not.toBe(firstValue);
    dns.publishTxt(recordName('token.verify.example'), firstValue);
    expect(await verify(second, 'token.verify.example')).toMatchObject({ status: 422, body: mismatch('token.verify.example') });
    expect(await verify(first, 'token.verify.example')).toMatchObject({ status: 200, body: { status: 'verified' } });
  });

  it('keeps a verified domain to one organization of the environment until it lets it go', async () => {
    const holder = await createOrganization(
      system,
      'Verify Holder',
      { allowed_email_domains: ['held.verify.example'] },
      production,
    );
    const claimant = await createOrganization(
      system,
      'Verify Claimant',
      { allowed_email_domains: ['held.verify.example'] },
      production,
    );
    dns.publishTxt(recordName('held.verify.example'), await startedRecord(holder, 'held.verify.example'));
    dns.publishTxt(recordName('held.verify.example'), await startedRecord(claimant, 'held.verify.example'));
    expect((await verify(holder, 'held.verify.example')).status).toBe(200);

    // The claimant's own record is published, yet the domain is the holder's.
    expect(await verify(claimant, 'held.verify.example')).toMatchObject({ status: 409, body: verifiedElsewhere });
    expect(await assert(claimant, 'held.verify.example')).toMatchObject({ status: 409, body: verifiedElsewhere });
    expect((await domains(claimant)).body.data[0].status).toBe('pending');

    // The sandbox has its own organizations: the same domain verifies there.
    const sandboxOrg = await createOrganization(system, 'Verify Sandbox Twin', {
      allowed_email_domains: ['held.verify.example'],
    });
    dns.publishTxt(recordName('held.verify.example'), await startedRecord(sandboxOrg, 'held.verify.example', system.apiKey));
    expect(await verify(sandboxOrg, 'held.verify.example', system.apiKey)).toMatchObject({
      status: 200,
      body: { status: 'verified' },
    });

    // The holder takes the domain out of its allowed_email_domains: it is free again, then deleted.
    expect((await call('PUT', `/api/v2/organizations/${holder}`, production, { allowed_email_domains: [] })).status).toBe(200);
    expect(await verify(claimant, 'held.verify.example')).toMatchObject({ status: 200, body: { status: 'verified' } });
    expect((await call('DELETE', `/api/v2/organizations/${claimant}`, production)).status).toBe(200);
    const third = await createOrganization(
      system,
      'Verify Third',
      { allowed_email_domains: ['held.verify.example'] },
      production,
    );
    expect(await assert(third, 'held.verify.example')).toMatchObject({
      status: 200,
      body: { status: 'verified', method: 'vendor_assertion', record: null },
    });
  });

  it('takes the vendor’s word with a production key only', async () => {
    const org = await createOrganization(system, 'Verify Asserted', { allowed_email_domains: ['asserted.verify.example'] });
    expect(await assert(org, 'asserted.verify.example', system.apiKey)).toMatchObject({
      status: 403,
      body: catalogueError(
        'domain_assertion_requires_production',
        'Only a production API key can assert that an organization owns a domain: in sandbox, publish the TXT record and verify it (unverified domains route by email in sandbox already)',
        '/domain-verification#vendor-assertion',
      ),
    });
    expect((await domains(org, system.apiKey)).body.data[0].status).toBe('unverified');
    const inProduction = await createOrganization(
      system,
      'Verify Asserted',
      { allowed_email_domains: ['asserted.verify.example'] },
      production,
    );
    expect(await assert(inProduction, 'asserted.verify.example')).toMatchObject({
      status: 200,
      body: { __environment__: 'production', status: 'verified', method: 'vendor_assertion', verified_at: expect.any(String) },
    });
  });

  it('routes a sign-in by email to a verified domain only in production, to any allowed domain in sandbox', async () => {
    const passphrase = 'correct horse battery staple 42';
    const setPassword = (user_email: string, key: ApiKey) =>
      call('POST', '/api/v2/password', key, { user_email, plain_text: passphrase });
    const org = await createOrganization(
      system,
      'Verify Routing',
      { allowed_email_domains: ['routing.verify.example'] },
      production,
    );
    expect((await call('POST', `/api/v2/org/${org}/password-connection`, production, {})).status).toBe(201);
    expect(await setPassword('ada@routing.verify.example', production)).toMatchObject({ status: 422, body: unverifiedRouting });
    // Naming the organization works whether its domain is verified or not.
    expect(
      (
        await call('POST', '/api/v2/password', production, {
          org_domain: org,
          user_email: 'ada@routing.verify.example',
          plain_text: passphrase,
        })
      ).status,
    ).toBe(201);

    dns.publishTxt(recordName('routing.verify.example'), await startedRecord(org, 'routing.verify.example'));
    expect((await verify(org, 'routing.verify.example')).status).toBe(200);
    expect(await setPassword('bob@routing.verify.example', production)).toMatchObject({ status: 201 });
    expect((await call('GET', `/api/v2/org/${org}/users/bob@routing.verify.example`, production)).status).toBe(200);

    // An unverified organization of the same domain does not change where production routes.
    await createOrganization(system, 'Verify Routing Copycat', { allowed_email_domains: ['routing.verify.example'] }, production);
    expect(await setPassword('cyd@routing.verify.example', production)).toMatchObject({ status: 201 });
    expect((await call('GET', `/api/v2/org/${org}/users/cyd@routing.verify.example`, production)).status).toBe(200);

    // Sandbox: the allowed domain routes unverified.
    const sandboxOrg = await createOrganization(system, 'Verify Routing Sandbox', {
      allowed_email_domains: ['sandbox-routing.verify.example'],
    });
    expect((await call('POST', `/api/v2/org/${sandboxOrg}/password-connection`, undefined, {})).status).toBe(201);
    expect(await setPassword('ada@sandbox-routing.verify.example', system.apiKey)).toMatchObject({ status: 201 });
  });

  it("lets an IT admin invited for domains verify the organization's domains from the onboarding page, and no one else", async () => {
    const org = await createOrganization(system, 'Verify Onboarding', { allowed_email_domains: ['onboarding.verify.example'] });
    const other = await createOrganization(system, 'Verify Onboarding Other', {
      allowed_email_domains: ['other.verify.example'],
    });
    const session = await onboardingSession(system, org, 'it@onboarding.verify.example', { allowed_setups: ['domains'] });
    const call = (path: string, body: unknown = {}, as: string | null = session) =>
      onboardingCall(system, 'POST', `domains/${path}`, as, body);

    expect(await call('list')).toMatchObject({
      status: 200,
      body: { data: [{ __domain__: org, email_domain: 'onboarding.verify.example', status: 'unverified' }] },
    });
    const started = await call('start', { email_domain: 'onboarding.verify.example' });
    expect(started).toMatchObject({ status: 200, body: { __domain__: org, status: 'pending' } });
    expect(await call('verify', { email_domain: 'onboarding.verify.example' })).toMatchObject({
      status: 422,
      body: notFoundMessage('onboarding.verify.example'),
    });
    dns.publishTxt(started.body.record.name, started.body.record.value);
    expect(await call('verify', { email_domain: 'onboarding.verify.example' })).toMatchObject({
      status: 200,
      body: { __domain__: org, status: 'verified', method: 'dns_txt' },
    });

    // The session names the organization: another organization's domain is not one of its own, and
    // an organization named in the body is not read.
    const notAllowed = { errors: { email_domain: ["must be one of the organization's allowed_email_domains"] } };
    expect(await call('start', { email_domain: 'other.verify.example', organization_domain: other })).toMatchObject({
      status: 422,
      body: notAllowed,
    });
    expect((await domains(other, system.apiKey)).body.data[0].status).toBe('unverified');

    // An invitation without `domains`, and no session at all.
    const ssoOnly = await onboardingSession(system, org, 'sso@onboarding.verify.example', { allowed_setups: ['sso'] });
    for (const path of ['list', 'start', 'verify'])
      expect(await call(path, { email_domain: 'onboarding.verify.example' }, ssoOnly)).toMatchObject({
        status: 403,
        body: catalogueError(
          'onboarding_setup_not_allowed',
          'Your invitation does not let you set this up: ask the vendor for an invitation that does',
          '/it-admin-onboarding',
        ),
      });
    expect((await call('list', {}, null)).status).toBe(401);
  });

  it('publishes the verification events to webhooks', async () => {
    const created = await call('POST', '/api/v2/webhooks', production, {
      name: 'Domains',
      event_codes: [
        'organization.domain.verification_started',
        'organization.domain.verified',
        'organization.domain.verification_failed',
      ],
      target_url: `${receiver.url}/domains`,
    });
    expect(created.status).toBe(201);
    const org = await createOrganization(
      system,
      'Verify Webhooks',
      { allowed_email_domains: ['hooks.verify.example'] },
      production,
    );
    const value = await startedRecord(org, 'hooks.verify.example');
    expect((await verify(org, 'hooks.verify.example')).status).toBe(422);
    dns.publishTxt(recordName('hooks.verify.example'), value);
    expect((await verify(org, 'hooks.verify.example')).status).toBe(200);

    const events = () =>
      receiver
        .to('/domains')
        .map((delivery) => JSON.parse(delivery.body) as DeliveredEvent)
        .filter((event) => event.__domain__ === org);
    await eventually(async () => events().length >= 3, 60_000);
    expect(events().map(({ code, data, __environment__ }) => ({ code, data, __environment__ }))).toEqual([
      {
        code: 'organization.domain.verification_started',
        data: { email_domain: 'hooks.verify.example', record_name: '_sesame-verification.hooks.verify.example' },
        __environment__: 'production',
      },
      {
        code: 'organization.domain.verification_failed',
        data: { email_domain: 'hooks.verify.example', reason: 'record_not_found' },
        __environment__: 'production',
      },
      {
        code: 'organization.domain.verified',
        data: { email_domain: 'hooks.verify.example', method: 'dns_txt' },
        __environment__: 'production',
      },
    ]);
  });
});
