import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { createLogger } from '@sesame/platform';
import { subscribeToServiceEvents } from '@sesame/platform/messaging';
import { jetStreamName } from '@sesame/platform/stores';
import type { RecordedEvent, Subscription } from '@sesame/platform';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { TestIdp } from '../support/saml-idp';
import { browserGet, postToAcs } from '../support/saml-browser';

const callback = 'https://app.example.com/callback';

/**
 * Deleting an organization removes its sign-in connections in its own environment (auth-methods
 * and directory-sync react to identity's `OrganizationDeleted`): the SSO connection and its
 * pending SAML requests, the directory sync and its SCIM token, the password, magic-link and
 * TOTP connections. The other environment's organization of the same domain keeps its own. An
 * organization created again with the same domain starts clean, and keeps the connections it
 * makes even when the deletion reaches auth-methods after them.
 */
describe('Organization deletion removes its connections (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let idp: TestIdp;
  let org: string;
  let scim: { path: string; token: string };
  let pending: { authorization_url: string; request_id: string };
  let acsUrl: string;
  let nc: NatsConnection;
  const feeds: Subscription[] = [];
  const seen: RecordedEvent[] = [];

  beforeAll(async () => {
    system = await System.start();
    nc = await connect(system.natsOptions());
    for (const source of ['auth-methods', 'directory-sync'] as const)
      feeds.push(
        subscribeToServiceEvents({
          nc,
          prefix: system.prefix,
          source,
          consumer: `test-${source}-deletions`,
          onCommit: async (commit) => void seen.push(...commit.events),
          logger: createLogger('test', 'silent'),
        }),
      );
    production = system.createApiKey('production');
    idp = await TestIdp.create();
    org = await createOrganization(system, 'Gone Corp', { allowed_email_domains: ['gone.example'] });
    expect(await createOrganization(system, 'Gone Corp', { allowed_email_domains: ['gone.example'] }, production)).toBe(org);
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
    for (const key of [undefined, production]) {
      const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
        body: { provider_type: 'okta', metadata: idp.metadata() },
        ...(key ? { key } : {}),
      });
      expect(created.status).toBe(201);
      if (!key) acsUrl = created.body.saml_config.acs_url;
    }
    const directory = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'okta' } });
    expect(directory.status).toBe(201);
    scim = { path: new URL(directory.body.scim_base_url).pathname, token: directory.body.auth_secret_token.value };
    expect((await system.request('GET', `${scim.path}/Users`, { token: scim.token })).status).toBe(200);
    const settings = [
      ['password-connection', { plain_text_min_length: 12 }],
      ['magic-link-connection', { find_or_create_user: true }],
    ] as const;
    for (const [path, body] of settings)
      expect((await system.request('POST', `/api/v2/org/${org}/${path}`, { body })).status).toBe(201);
    expect((await system.request('PUT', `/api/v2/org/${org}/totp-connection`, { body: { active: true } })).status).toBe(200);
    const challenge = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: callback, org_domain: org },
    });
    expect(challenge.status).toBe(201);
    pending = challenge.body;
  });
  afterAll(async () => {
    await Promise.all(feeds.map((feed) => feed.stop()));
    await nc?.close();
    await system?.stop();
  });
  const deletions = () =>
    seen
      .filter((event) => event.type.endsWith('Deleted'))
      .map((event) => [event.type, (event.data as { environment: string }).environment])
      .sort();

  it('removes the SSO connection of its environment and refuses its pending SAML requests', async () => {
    expect((await system.request('DELETE', `/api/v2/organizations/${org}`)).status).toBe(200);
    await eventually(async () => (await system.request('GET', '/api/v2/sso-connections')).body.total === 0);
    const authorize = await browserGet(pending.authorization_url);
    expect(authorize.status).toBe(400);
    expect(authorize.body).toContain('Single sign-on is not available for this organization.');
    const acs = await postToAcs(acsUrl, Buffer.from('<samlp:Response/>').toString('base64'), pending.request_id);
    expect(acs.status).toBe(400);
    expect(acs.body).toContain('Single sign-on is not available for this organization.');
  });

  it('removes the directory sync: its SCIM token stops working', async () => {
    await eventually(async () => (await system.request('GET', `${scim.path}/Users`, { token: scim.token })).status === 401);
    expect(await system.request('GET', `${scim.path}/Users`, { token: scim.token })).toMatchObject({
      status: 401,
      body: { status: '401', detail: 'Authentication failed: the bearer token is not the one of this directory sync' },
    });
  });

  it('deletes each connection with its own event, once', async () => {
    const expected = [
      ['DirectorySyncDeleted', 'sandbox'],
      ['MagicLinkConnectionDeleted', 'sandbox'],
      ['PasswordConnectionDeleted', 'sandbox'],
      ['SsoConnectionDeleted', 'sandbox'],
      ['TotpConnectionDeleted', 'sandbox'],
    ];
    await eventually(async () => deletions().length >= expected.length);
    expect(deletions()).toEqual(expected);
    expect(seen.find((event) => event.type === 'SsoConnectionDeleted')?.data).toMatchObject({
      organization_domain: org,
      reason: 'organization_deleted',
    });
  });

  it('leaves the production organization of the same domain its SSO connection', async () => {
    expect(await system.request('GET', '/api/v2/sso-connections', { key: production })).toMatchObject({
      status: 200,
      body: { total: 1, data: [{ __domain__: org, __environment__: 'production' }] },
    });
    expect(await system.request('GET', `/api/v2/org/${org}/sso-connection`, { key: production })).toMatchObject({
      status: 200,
      body: { __environment__: 'production', active: true },
    });
  });

  it('lets an organization of the same domain start clean', async () => {
    expect(await createOrganization(system, 'Gone Corp', { allowed_email_domains: ['gone.example'] })).toBe(org);
    const notFound = { status: 404 };
    expect(await system.request('GET', `/api/v2/org/${org}/sso-connection`)).toMatchObject(notFound);
    expect(await system.request('GET', `/api/v2/org/${org}/directory-sync`)).toMatchObject(notFound);
    expect(await system.request('GET', `/api/v2/org/${org}/magic-link-connection`)).toMatchObject(notFound);
    expect((await system.request('GET', `/api/v2/org/${org}/password-connection`)).body).toMatchObject({
      plain_text_min_length: 8,
    });
    expect((await system.request('GET', `/api/v2/org/${org}/totp-connection`)).body).toMatchObject({ active: false });

    // A new SSO connection of the same name: created anew, and the old pending request is still refused.
    const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
      body: { provider_type: 'okta', metadata: idp.metadata() },
    });
    expect(created.status).toBe(201);
    const authorize = await browserGet(pending.authorization_url);
    expect(authorize.status).toBe(400);
    expect(authorize.body).toContain('Single sign-on is not available for this organization.');
    const fresh = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: callback, org_domain: org },
    });
    expect((await browserGet(fresh.body.authorization_url)).status).toBe(302);
    const directory = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'okta' } });
    expect(directory.status).toBe(201);
    expect(directory.body.id).not.toBe(scim.path.split('/').at(-1));
  });

  it('keeps the connections of an organization re-created before auth-methods and directory-sync handled the deletion', async () => {
    const raced = await system.request('POST', '/api/v2/organizations', { body: { name: 'Raced Corp' } });
    expect(raced.status).toBe(201);
    const domain: string = raced.body.domain;
    const path = (connection: string) => `/api/v2/org/${domain}/${connection}`;
    expect((await system.request('POST', path('magic-link-connection'), { body: { find_or_create_user: true } })).status).toBe(
      201,
    );
    expect((await system.request('PUT', path('totp-connection'), { body: { active: true } })).status).toBe(200);
    const sso = { provider_type: 'okta', metadata: idp.metadata() };
    expect((await system.request('POST', path('sso-connection'), { body: sso })).status).toBe(201);
    const oldDirectory = await system.request('POST', path('directory-sync'), { body: { provider_type: 'okta' } });
    expect(oldDirectory.status).toBe(201);

    // auth-methods and directory-sync are down when the organization is deleted; when they are back,
    // the replica that takes the deletion fails on it and gives it back (the test plays that replica
    // on each shared durable consumer), so each handles the deletion after the re-created
    // organization's connections.
    const stream = jetStreamName(system.prefix, 'identity');
    const durables = ['auth-methods-organization-deletion', 'directory-sync-organization-deletion'];
    const jsm = await nc.jetstreamManager();
    const handledUpTo = async (durable: string, seq: number) =>
      (await jsm.consumers.info(stream, durable)).ack_floor.stream_seq >= seq;
    for (const durable of durables)
      await eventually(async () => {
        const { num_pending, num_ack_pending } = await jsm.consumers.info(stream, durable);
        return num_pending === 0 && num_ack_pending === 0;
      });
    await system.kill(['auth-methods', 'directory-sync'], 'SIGTERM');
    expect((await system.request('DELETE', `/api/v2/organizations/${domain}`)).status).toBe(200);
    // Commits of identity before the deletion (the services' provisioning confirmations, which arrive
    // in the background) are let through as the service would: it has nothing to do for them.
    const isDeletion = (message: { json<T>(): T }) =>
      message.json<{ events: RecordedEvent[] }>().events.some((event) => event.type === 'OrganizationDeleted');
    const takeDeletion = async (durable: string) => {
      const consumer = await nc.jetstream().consumers.get(stream, durable);
      let deletion = await consumer.next({ expires: 30_000 });
      for (let skipped = 0; deletion && !isDeletion(deletion) && skipped < 20; skipped++) {
        deletion.ack();
        deletion = await consumer.next({ expires: 30_000 });
      }
      if (!deletion) throw new Error(`the deletion was not delivered to ${durable}`);
      expect(deletion.json<{ events: RecordedEvent[] }>().events).toEqual([
        expect.objectContaining({ type: 'OrganizationDeleted', data: expect.objectContaining({ domain }) }),
      ]);
      return deletion;
    };
    const deletions = [await takeDeletion(durables[0]!), await takeDeletion(durables[1]!)];
    const holding = setInterval(() => deletions.forEach((deletion) => deletion.working()), 2_000);
    let newDirectory: { id: string; auth_secret_token: { value: string } } | undefined;
    try {
      const again = await system.request('POST', '/api/v2/organizations', { body: { name: 'Raced Corp' } });
      expect(again.body).toMatchObject({ domain });
      expect(again.body.id).not.toBe(raced.body.id);
      await system.restart(['auth-methods', 'directory-sync']);
      await eventually(async () => (await system.request('GET', path('password-connection'))).status === 200, 30_000);
      // The deleted organization's directory sync is not yet removed: the new one neither sees it nor changes it.
      await eventually(async () => (await system.request('GET', path('directory-sync'))).status === 404, 30_000);
      expect(await system.request('PUT', path('directory-sync'), { body: { active: false } })).toMatchObject({ status: 404 });
      const made = [
        await system.request('POST', path('password-connection'), { body: { plain_text_min_length: 14 } }),
        await system.request('POST', path('magic-link-connection'), { body: {} }),
        await system.request('PUT', path('totp-connection'), { body: { active: true, method: 'sms' } }),
        // The old organization's SSO connection is not yet removed: the new one has its own all the same.
        await system.request('POST', path('sso-connection'), { body: { ...sso, allow_idp_initiated: true } }),
        await system.request('POST', path('directory-sync'), { body: { provider_type: 'jumpcloud' } }),
      ];
      expect(made.map(({ status }) => status)).toEqual([201, 201, 200, 201, 201]);
      newDirectory = made[4]!.body;
      expect(newDirectory?.id).not.toBe(oldDirectory.body.id);
    } finally {
      clearInterval(holding);
      deletions.forEach((deletion) => deletion.nak());
    }

    for (const [index, durable] of durables.entries())
      await eventually(() => handledUpTo(durable, deletions[index]!.seq), 30_000);
    expect(await system.request('GET', path('directory-sync'))).toMatchObject({
      status: 200,
      body: { id: newDirectory?.id, provider_type: 'jumpcloud', active: true },
    });
    const scimUsers = async (directory: { id: string; auth_secret_token: { value: string } }) =>
      (
        await fetch(`${system.baseUrl}/scim/v2/${directory.id}/Users`, {
          headers: { authorization: `Bearer ${directory.auth_secret_token.value}` },
        })
      ).status;
    expect(await scimUsers(newDirectory!)).toBe(200);
    expect(await scimUsers(oldDirectory.body)).toBe(401);
    const ofDomain = () =>
      seen
        .filter((event) => event.type.endsWith('Deleted'))
        .filter((event) => (event.data as { organization_domain?: string }).organization_domain === domain);
    await eventually(async () => ofDomain().length >= 4);
    const deleted = ofDomain().map((event) => [event.type, (event.data as { organization_id?: string }).organization_id]);
    expect(deleted.sort()).toEqual([
      ['DirectorySyncDeleted', raced.body.id],
      ['MagicLinkConnectionDeleted', raced.body.id],
      ['SsoConnectionDeleted', raced.body.id],
      ['TotpConnectionDeleted', raced.body.id],
    ]);
    expect(ofDomain().map((event) => event.metadata.tenant)).toEqual(
      ofDomain().map(() => ({ organization_id: raced.body.id, environment: 'sandbox' })),
    );
    expect(await system.request('GET', path('sso-connection'))).toMatchObject({
      status: 200,
      body: { allow_idp_initiated: true },
    });
    expect((await system.request('GET', path('password-connection'))).body).toMatchObject({ plain_text_min_length: 14 });
    expect(await system.request('GET', path('magic-link-connection'))).toMatchObject({
      status: 200,
      body: { find_or_create_user: false },
    });
    expect((await system.request('GET', path('totp-connection'))).body).toEqual({
      active: true,
      method: 'sms',
      expiry_in_seconds: 600,
    });
  });
});
