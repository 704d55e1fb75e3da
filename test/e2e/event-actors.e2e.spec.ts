import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { eventSubjectPrefix } from '@sesame/contracts';
import type { ServiceName } from '@sesame/contracts';
import { JetStreamEventStore } from '@sesame/platform/event-store';
import type { RecordedEvent } from '@sesame/platform';
import { jetStreamName } from '@sesame/platform/stores';
import { inviteAdmin, onboardingCall, openInvitation } from '../support/admin-invitations';
import { createOrganization } from '../support/identity-fixtures';
import { browserGet, idpReceivesAuthnRequest, postToAcs } from '../support/saml-browser';
import { TestIdp } from '../support/saml-idp';
import { sharedSystem } from '../support/shared-system';
import { System } from '../support/system';

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const plainText = 'correct horse battery staple 42';
const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) ActorTest/1.0';
/** An address the test does not connect from: a client may write anything in `X-Forwarded-For`. */
const forgedAddress = '203.0.113.9';
const services: ServiceName[] = ['identity', 'auth-methods', 'directory-sync'];

/** Every event a service's store holds, read from its first commit to its newest. */
async function eventsOf(nc: NatsConnection, system: System, service: ServiceName): Promise<RecordedEvent[]> {
  const store = await JetStreamEventStore.open(nc, {
    streamName: jetStreamName(system.prefix, service),
    subjectPrefix: eventSubjectPrefix(system.prefix, service),
  });
  const head = await store.headPosition();
  const events: RecordedEvent[] = [];
  if (head === 0n) return events;
  await new Promise<void>((done, fail) => {
    const subscription = store.subscribeToAll({
      from: 0n,
      onCommit: async (commit) => {
        events.push(...commit.events);
        if (commit.position >= head) void subscription.stop().then(done, fail);
      },
    });
  });
  return events;
}

describe('The actor of every event (all processes, real NATS, the real store)', () => {
  let system: System;
  let nc: NatsConnection;
  let org: string;
  /** The secrets the requests of this file sent: no envelope may hold one. */
  const secrets = [plainText, 'not the password at all'];
  const emailDomain = `actors-${randomUUID().slice(0, 8)}.example.com`;
  const email = (name: string) => `${name}@${emailDomain}`;
  /** A request of this test, named by its correlation id, from a browser-like client that forges its address. */
  const headersOf = (correlationId: string) => ({
    'user-agent': userAgent,
    'x-correlation-id': correlationId,
    'x-forwarded-for': forgedAddress,
  });
  /** What the stores recorded for a correlation id, with the service that recorded it. */
  const recorded = async (correlationId: string) => {
    const all = await Promise.all(
      services.map(async (service) => (await eventsOf(nc, system, service)).map((event) => ({ service, event }))),
    );
    return all.flat().filter(({ event }) => event.metadata.correlationId === correlationId);
  };

  beforeAll(async () => {
    system = await sharedSystem();
    nc = await connect(system.natsOptions());
    org = await createOrganization(system, `Actors ${emailDomain}`, { allowed_email_domains: [emailDomain] });
  });
  afterAll(async () => {
    await nc?.close();
  });

  const jetStreamOnly = () => (system.env.SESAME_EVENT_STORE ?? 'jetstream') === 'jetstream';

  it('names the API key of a user creation, with its address (not the forged one) and user agent', async () => {
    if (!jetStreamOnly()) return;
    const correlationId = `actor-user-${randomUUID()}`;
    const created = await system.request('POST', `/api/v2/org/${org}/users`, {
      body: { email: email('ada') },
      headers: headersOf(correlationId),
    });
    expect(created.status).toBe(201);
    const events = await recorded(correlationId);
    expect(events.map(({ service, event }) => [service, event.type])).toContainEqual(['identity', 'UserCreated']);
    for (const { event } of events)
      expect(event.metadata.actor).toEqual({
        type: 'api_key',
        id: system.apiKey.clientId,
        ip: '127.0.0.1',
        user_agent: userAgent,
      });
  });

  it('names the directory sync of a SCIM push, in directory-sync and in identity', async () => {
    if (!jetStreamOnly()) return;
    const sync = await system.request('POST', `/api/v2/org/${org}/directory-sync`, { body: { provider_type: 'okta' } });
    expect(sync.status).toBe(201);
    secrets.push(sync.body.auth_secret_token.value);
    const correlationId = `actor-scim-${randomUUID()}`;
    const pushed = await system.request('POST', `${new URL(sync.body.scim_base_url).pathname}/Users`, {
      token: sync.body.auth_secret_token.value,
      headers: { ...headersOf(correlationId), 'content-type': 'application/scim+json' },
      body: { schemas: [userSchema], userName: email('lin'), emails: [{ value: email('lin'), primary: true }], active: true },
    });
    expect(pushed.status).toBe(201);
    const events = await recorded(correlationId);
    const services = new Set(events.map(({ service }) => service));
    expect(services).toEqual(new Set(['directory-sync', 'identity']));
    for (const { service, event } of events) {
      const actor = { type: 'directory_sync', id: sync.body.id };
      // directory-sync took the request from the gateway; identity, from directory-sync, which names the sync only.
      expect(event.metadata.actor).toEqual(
        service === 'directory-sync' ? { ...actor, ip: '127.0.0.1', user_agent: userAgent } : actor,
      );
    }
  });

  it('names the API key of a password sign-in, failed or not, and of the code exchange its secret proves', async () => {
    if (!jetStreamOnly()) return;
    const user = email('grace');
    expect(
      (await system.request('POST', '/api/v2/password', { body: { org_domain: org, user_email: user, plain_text: plainText } }))
        .status,
    ).toBe(201);
    const challenge = async (plain_text: string) => {
      const correlationId = `actor-password-${randomUUID()}`;
      const answer = await system.request('POST', '/api/v2/password-challenge', {
        body: { org_domain: org, user_email: user, plain_text },
        headers: headersOf(correlationId),
      });
      expect(answer.status).toBe(200);
      return { correlationId, body: answer.body };
    };
    const failed = await challenge('not the password at all');
    expect(failed.body).toMatchObject({ 'valid?': false, error: 'invalid_credentials' });
    const succeeded = await challenge(plainText);
    expect(succeeded.body).toMatchObject({ 'valid?': true, code: expect.any(String) });
    const exchangeId = `actor-token-${randomUUID()}`;
    const tokens = await system.request('POST', '/oauth/token', {
      token: null,
      headers: headersOf(exchangeId),
      form: new URLSearchParams({
        grant_type: 'authorization_code',
        code: succeeded.body.code,
        client_id: system.apiKey.clientId,
        client_secret: system.apiKey.clientSecret,
      }).toString(),
    });
    expect(tokens.status).toBe(200);

    const apiKey = { type: 'api_key', id: system.apiKey.clientId, ip: '127.0.0.1', user_agent: userAgent };
    const failure = await recorded(failed.correlationId);
    expect(failure.map(({ event }) => event.type)).toEqual(['PasswordChallengeFailed']);
    const success = await recorded(succeeded.correlationId);
    expect(success.map(({ event }) => event.type)).toEqual(expect.arrayContaining(['PasswordChallengeSucceeded']));
    const exchange = await recorded(exchangeId);
    expect(exchange.length).toBeGreaterThan(0);
    for (const { event } of [...failure, ...success, ...exchange]) expect(event.metadata.actor).toEqual(apiKey);

    secrets.push(system.apiKey.clientSecret, tokens.body.access_token, tokens.body.refresh_token);
  });

  it('names the IT admin of an onboarding session, by the id of the admin the invitation is for', async () => {
    if (!jetStreamOnly()) return;
    const invited = email('it-admin');
    const { token } = await inviteAdmin(system, org, invited);
    const openedId = `actor-onboarding-${randomUUID()}`;
    const { session } = await openInvitation(system, token, headersOf(openedId));
    const declinedId = `actor-onboarding-${randomUUID()}`;
    const declined = await onboardingCall(system, 'POST', 'decline', session, {}, headersOf(declinedId));
    expect(declined.status).toBe(200);
    const admin = await system.request('GET', `/api/v2/org/${org}/admins/${invited}`);
    const opened = await recorded(openedId);
    const answered = await recorded(declinedId);
    expect(opened.map(({ event }) => event.type)).toEqual(expect.arrayContaining(['AdminOnboardingSessionOpened']));
    expect(answered.map(({ event }) => event.type)).toEqual(expect.arrayContaining(['AdminInvitationDeclined']));
    for (const { event } of [...opened, ...answered])
      expect(event.metadata.actor).toEqual({ type: 'it_admin', id: admin.body.id, ip: '127.0.0.1', user_agent: userAgent });
    secrets.push(token, session as string);
  });

  it('names the SSO connection of a SAML login, in auth-methods and in identity, which provisions its user', async () => {
    if (!jetStreamOnly()) return;
    const callback = 'https://app.example.com/actors-callback';
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
    const idp = await TestIdp.create();
    const created = await system.request('POST', `/api/v2/org/${org}/sso-connection`, {
      body: { provider_type: 'okta', metadata: idp.metadata() },
    });
    expect(created.status).toBe(201);
    const { id, saml_config } = created.body;
    const challenge = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: callback, user_email: email('sso') },
    });
    expect(challenge.status).toBe(201);
    const toIdp = await browserGet(challenge.body.authorization_url);
    const spMetadata = await (await fetch(saml_config.cryptr_metadata_url)).text();
    const request = await idpReceivesAuthnRequest(idp, toIdp.location as string, spMetadata);
    const response = idp.loginResponse(
      { entity_id: saml_config.entity_id, acs_url: saml_config.acs_url },
      { nameId: email('sso'), inResponseTo: request.id, attributes: { email: email('sso') } },
    );
    const landing = await postToAcs(saml_config.acs_url, response, request.relayState ?? undefined);
    expect(landing.status).toBe(302);
    const events = await recorded(landing.correlationId as string);
    expect(events.map(({ service, event }) => [service, event.type])).toEqual(
      expect.arrayContaining([
        ['identity', 'UserCreated'],
        ['auth-methods', 'SsoChallengeCompleted'],
      ]),
    );
    for (const { event } of events)
      expect(event.metadata.actor).toEqual({ type: 'sso_connection', id, ip: '127.0.0.1', user_agent: expect.any(String) });

    // A refused login (a response the IdP did not sign: another IdP's) is recorded as the connection's too.
    const refusedChallenge = await system.request('POST', '/api/v2/sso-saml-challenge', {
      body: { redirect_uri: callback, user_email: email('sso') },
    });
    const refusedRequest = await idpReceivesAuthnRequest(
      idp,
      (await browserGet(refusedChallenge.body.authorization_url)).location as string,
      spMetadata,
    );
    const forged = (await TestIdp.create()).loginResponse(
      { entity_id: saml_config.entity_id, acs_url: saml_config.acs_url },
      { nameId: email('sso'), inResponseTo: refusedRequest.id, attributes: { email: email('sso') } },
    );
    const refused = await postToAcs(saml_config.acs_url, forged, refusedRequest.relayState ?? undefined);
    const failure = await recorded(refused.correlationId as string);
    expect(failure.map(({ event }) => event.type)).toEqual(expect.arrayContaining(['SsoChallengeFailed']));
    for (const { event } of failure)
      expect(event.metadata.actor).toEqual({ type: 'sso_connection', id, ip: '127.0.0.1', user_agent: expect.any(String) });
  });

  it('keeps every secret those requests sent, and the forged address, out of every envelope of the stores', async () => {
    if (!jetStreamOnly()) return;
    expect(secrets).toHaveLength(8);
    const everything = (await Promise.all(services.map((service) => eventsOf(nc, system, service)))).flat();
    const envelopes = JSON.stringify(everything.map((event) => event.metadata));
    for (const secret of secrets) expect(envelopes).not.toContain(secret);
    expect(envelopes).not.toContain(forgedAddress);
  });
});

describe('The actor behind a trusted proxy (SESAME_TRUST_PROXY=1, all processes)', () => {
  let system: System;
  let nc: NatsConnection;
  beforeAll(async () => {
    system = await System.start({ processEnv: { gateway: { SESAME_TRUST_PROXY: '1' } } });
    nc = await connect(system.natsOptions());
  });
  afterAll(async () => {
    await nc?.close();
    await system?.stop();
  });

  it('records the address the proxy saw (the last hop), not the one the client wrote before it', async () => {
    if ((system.env.SESAME_EVENT_STORE ?? 'jetstream') !== 'jetstream') return;
    const domain = `proxied-${randomUUID().slice(0, 8)}.example.com`;
    const org = await createOrganization(system, `Proxied ${domain}`, { allowed_email_domains: [domain] });
    const correlationId = `actor-proxied-${randomUUID()}`;
    const created = await system.request('POST', `/api/v2/org/${org}/users`, {
      body: { email: `ada@${domain}` },
      headers: { 'x-correlation-id': correlationId, 'x-forwarded-for': `198.51.100.1, ${forgedAddress}` },
    });
    expect(created.status).toBe(201);
    const events = (await eventsOf(nc, system, 'identity')).filter((event) => event.metadata.correlationId === correlationId);
    expect(events.map((event) => event.type)).toContain('UserCreated');
    for (const event of events)
      expect(event.metadata.actor).toEqual({
        type: 'api_key',
        id: system.apiKey.clientId,
        ip: forgedAddress,
        user_agent: expect.any(String),
      });
  });
});
