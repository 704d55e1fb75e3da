import * as OTPAuth from 'otpauth';
import { Webhook } from 'standardwebhooks';
import { publishedEventSchemas, webhookEventCatalogue } from '@sesame/contracts';
import type { WebhookEventCode } from '@sesame/contracts';
import { LocalDnsServer } from '../support/dns-server';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { inviteAdmin, onboardingCall, openInvitation } from '../support/admin-invitations';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { TestIdp } from '../support/saml-idp';
import { browserGet, idpReceivesAuthnRequest, postToAcs } from '../support/saml-browser';
import { WebhookReceiver } from '../support/webhook-receiver';
import type { ReceivedDelivery } from '../support/webhook-receiver';

const deliveryEnv = { SESAME_WEBHOOK_POLL_MS: '100' };
const long = 90_000;
const callback = 'https://app.hooks.example/callback';
const partnerCallback = 'https://partner.hooks.example/callback';
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const groupSchema = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

interface DeliveredEvent {
  __type__: string;
  __domain__: string | null;
  __environment__: string;
  id: string;
  code: WebhookEventCode;
  data: any;
  webhook_id: string;
  description: string;
}

/**
 * The catalogue is delivered: a webhook subscribed to every code receives each one after the
 * real action that causes it (SCIM pushes with the SCIM token, magic links, relays, passwords,
 * TOTP, SAML sign-ins through samlify), each delivery verified with the Standard Webhooks library.
 */
describe('Webhook catalogue: each code delivered after its real action (all processes, real NATS)', () => {
  let system: System;
  let receiver: WebhookReceiver;
  let production: ApiKey;
  /** The DNS server the identity service reads domain verification records from. */
  let dns: LocalDnsServer;
  const keys = new Map<string, string>();
  const seen = new Set<WebhookEventCode>();

  const subscribe = async (path: string, event_codes: string[], key?: ApiKey) => {
    const { status, body } = await system.request('POST', '/api/v2/webhooks', {
      key,
      body: { name: path, event_codes, target_url: `${receiver.url}${path}` },
    });
    expect(status).toBe(201);
    keys.set(path, body.signature_key);
  };
  /** The events delivered to `path`, each verified with the webhook's signing key (a bad signature throws). */
  const deliveredTo = (path: string): DeliveredEvent[] =>
    receiver.to(path).map((delivery: ReceivedDelivery) =>
      new Webhook(keys.get(path) as string).verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }),
    ) as DeliveredEvent[];
  /** Waits for the event of `code` (of the organization `domain`, and that `match` accepts) to reach `path`, and answers it. */
  const delivered = async (
    code: WebhookEventCode,
    domain: string | null,
    path = '/all',
    match: (event: DeliveredEvent) => boolean = () => true,
  ): Promise<DeliveredEvent> => {
    const find = () => deliveredTo(path).find((event) => event.code === code && event.__domain__ === domain && match(event));
    await eventually(async () => find() !== undefined, long).catch(() => {
      throw new Error(`${code} of ${domain} not delivered; got ${deliveredTo(path).map((event) => event.code)}`);
    });
    const event = find() as DeliveredEvent;
    expect(event).toMatchObject({ __type__: 'Event', description: webhookEventCatalogue[code] });
    // Exactly the code's published shape: its schema parses it and drops nothing.
    expect(publishedEventSchemas[code].parse(event)).toEqual(event);
    seen.add(code);
    return event;
  };
  const noSecrets = (event: DeliveredEvent) =>
    expect(JSON.stringify(event)).not.toMatch(/hash|secret|argon2|pepper|nonce|"step"|"counter"|SAMLResponse|Signature/);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    dns = await LocalDnsServer.start();
    system = await System.start({ processEnv: { webhooks: deliveryEnv, identity: { SESAME_DNS_SERVERS: dns.server } } });
    production = system.createApiKey('production');
    await subscribe('/all', Object.keys(webhookEventCatalogue));
    await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } });
  });
  afterAll(async () => {
    await system?.stop();
    await receiver?.stop();
    await dns?.stop();
  });

  describe('directory sync, pushed by a SCIM provider', () => {
    let domain: string;
    let base: string;
    let token: string;
    const scim = (method: string, path: string, body?: unknown) =>
      system.request(method, `${base}${path}`, {
        token,
        headers: { 'content-type': 'application/scim+json' },
        ...(body === undefined ? {} : { body }),
      });

    beforeAll(async () => {
      domain = await createOrganization(system, 'Scim Hooks', { allowed_email_domains: ['scim-hooks.com'] });
    });

    it('delivers the directory sync created, updated and its token rotated', async () => {
      const created = await system.request('POST', `/api/v2/org/${domain}/directory-sync`, { body: { provider_type: 'okta' } });
      expect(created.status).toBe(201);
      base = new URL(created.body.scim_base_url).pathname;
      const rotated = await system.request('PUT', `/api/v2/org/${domain}/directory-sync`, {
        body: { active: false, rotate_auth_secret_token: true },
      });
      expect(rotated.status).toBe(200);
      await system.request('PUT', `/api/v2/org/${domain}/directory-sync`, { body: { active: true } });
      token = rotated.body.auth_secret_token.value;
      const events = [
        await delivered('directory_sync.created', domain),
        await delivered('directory_sync.updated', domain),
        await delivered('directory_sync.token_rotated', domain),
      ];
      for (const event of events) {
        expect(event).toMatchObject({
          __environment__: 'sandbox',
          data: { directory_sync_id: created.body.id, provider: 'okta' },
        });
        expect(JSON.stringify(event)).not.toContain(token);
        expect(JSON.stringify(event)).not.toContain(created.body.auth_secret_token.value);
      }
      expect(events[0]?.data).toMatchObject({ change: 'created', resource: { type: 'directory_sync' } });
    });

    it('delivers each SCIM user change, and a refused user with the SCIM error', async () => {
      const user = {
        schemas: [userSchema],
        userName: 'ada@scim-hooks.com',
        externalId: 'okta-ada',
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        emails: [{ value: 'ada@scim-hooks.com', type: 'work', primary: true }],
        password: 'never-published-1',
        active: true,
      };
      const created = await scim('POST', '/Users', user);
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const provisioned = await delivered('directory_sync.user.provisioning.success', domain);
      expect(provisioned).toMatchObject({
        __environment__: 'sandbox',
        data: { change: 'created', provider: 'okta', resource: { id, type: 'user' } },
      });

      const rename = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'name.givenName', value: 'Augusta' }] };
      expect((await scim('PATCH', `/Users/${id}`, rename)).status).toBe(204);
      expect(await delivered('directory_sync.user.update.success', domain)).toMatchObject({
        data: { change: 'updated', resource: { id, changes: { new_values: { name: { givenName: 'Augusta' } } } } },
      });
      const deactivate = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'active', value: false }] };
      expect((await scim('PATCH', `/Users/${id}`, deactivate)).status).toBe(204);
      expect(await delivered('directory_sync.user.deactivation.success', domain)).toMatchObject({
        data: { change: 'deactivated', resource: { id } },
      });

      const taken = await scim('POST', '/Users', { ...user, externalId: 'okta-ada-2' });
      expect(taken).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } });
      const failure = await delivered('directory_sync.user.provisioning.failure', domain);
      expect(failure).toMatchObject({
        __environment__: 'sandbox',
        data: {
          provider: 'okta',
          resource: { type: 'user', user_name: 'ada@scim-hooks.com', external_id: 'okta-ada-2' },
          error: { status: 409, scim_type: 'uniqueness', detail: taken.body.detail },
        },
      });
      expect(JSON.stringify(failure)).not.toContain('never-published-1');

      expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
      expect(await delivered('directory_sync.user.deletion.success', domain)).toMatchObject({
        data: { change: 'deleted', resource: { id } },
      });
      expect(JSON.stringify(deliveredTo('/all'))).not.toContain('never-published-1');
      for (const code of ['user.created', 'user.updated', 'user.deactivated', 'user.deleted'] as const)
        expect(await delivered(code, domain)).toMatchObject({ data: { user: { email: 'ada@scim-hooks.com' } } });
      // A privacy erasure of the deprovisioned user: its record, without personal data.
      const { id: userId } = (await delivered('user.deleted', domain)).data.user as { id: string };
      const erasure = await system.request('POST', `/api/v2/org/${domain}/users/${userId}/erasure`);
      expect(erasure.status).toBe(200);
      expect((await delivered('user.erased', domain)).data).toEqual({
        organization_domain: domain,
        organization_id: expect.any(String),
        user_id: userId,
        pseudonym: erasure.body.pseudonym,
      });
    });

    it('delivers each SCIM group change', async () => {
      const created = await scim('POST', '/Groups', { schemas: [groupSchema], displayName: 'Engineering' });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      expect(await delivered('directory_sync.group.creation.success', domain)).toMatchObject({
        data: { change: 'created', resource: { id, type: 'group' } },
      });
      const member = await scim('POST', '/Users', {
        schemas: [userSchema],
        userName: 'grace@scim-hooks.com',
        emails: [{ value: 'grace@scim-hooks.com', type: 'work', primary: true }],
      });
      const patch = (Operations: unknown[]) => scim('PATCH', `/Groups/${id}`, { schemas: [patchOp], Operations });
      expect((await patch([{ op: 'add', path: 'members', value: [{ value: member.body.id }] }])).status).toBe(204);
      expect((await patch([{ op: 'remove', path: `members[value eq "${member.body.id}"]` }])).status).toBe(204);
      const rename = { schemas: [patchOp], Operations: [{ op: 'replace', path: 'displayName', value: 'R&D' }] };
      expect((await scim('PATCH', `/Groups/${id}`, rename)).status).toBe(204);
      const renamed = (event: DeliveredEvent) => event.data.resource.changes.new_values.displayName !== undefined;
      expect(await delivered('directory_sync.group.update.success', domain, '/all', renamed)).toMatchObject({
        data: { change: 'updated', resource: { id, changes: { new_values: { displayName: 'R&D' } } } },
      });
      expect((await scim('DELETE', `/Groups/${id}`)).status).toBe(204);
      expect(await delivered('directory_sync.group.deletion.success', domain)).toMatchObject({
        data: { change: 'deleted', resource: { id } },
      });
      for (const code of [
        'group.created',
        'group.members_added',
        'group.members_removed',
        'group.updated',
        'group.deleted',
      ] as const)
        expect(await delivered(code, domain)).toMatchObject({ __environment__: 'sandbox', data: { group: expect.any(Object) } });
    });

    it('delivers an attributes mapping change to the webhooks of its environment only', async () => {
      await subscribe('/production-mapping', ['directory_sync.attributes_mapping.updated'], production);
      const initial = await system.request('GET', '/api/v2/attributes-mapping', { key: production });
      const attributes = [
        ...initial.body.attributes,
        { name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', mapped_name: 'metadata.department' },
      ];
      expect((await system.request('PUT', '/api/v2/attributes-mapping', { key: production, body: { attributes } })).status).toBe(
        200,
      );
      const event = await delivered('directory_sync.attributes_mapping.updated', null, '/production-mapping');
      expect(event).toMatchObject({ __environment__: 'production', __domain__: null });
      seen.add('directory_sync.attributes_mapping.updated');
      expect(deliveredTo('/all').some((other) => other.code === 'directory_sync.attributes_mapping.updated')).toBe(false);
    });
  });

  describe('sign-ins', () => {
    let domain: string;
    beforeAll(async () => {
      domain = await createOrganization(system, 'Sign-in Hooks', { allowed_email_domains: ['signin-hooks.com'] });
      await system.request('POST', `/api/v2/org/${domain}/magic-link-connection`, { body: {} });
    });
    const exchange = (code: string) =>
      system.request('POST', '/oauth/token', {
        token: null,
        body: {
          grant_type: 'authorization_code',
          code,
          client_id: system.apiKey.clientId,
          client_secret: system.apiKey.clientSecret,
        },
      });

    it('delivers a magic link sent, then used, in the organization of the user', async () => {
      const challenge = await system.request('POST', '/api/v2/magic-link-challenge', {
        body: { email: 'grace@signin-hooks.com', org_domain: domain, redirect_uri: callback, find_or_create_user: true },
      });
      expect(challenge.status).toBe(201);
      const sent = await delivered('magic_link.challenge.created', domain);
      const user = (await system.request('GET', `/api/v2/org/${domain}/users/grace@signin-hooks.com`)).body;
      expect(sent).toMatchObject({
        __environment__: 'sandbox',
        data: { organization_domain: domain, user_id: user.id, method: 'magic_link', redirect_uri: callback },
      });
      expect(
        deliveredTo('/all').some((event) => event.code === 'magic_link.challenge.succeeded' && event.__domain__ === domain),
      ).toBe(false);
      expect((await exchange(challenge.body.code)).status).toBe(200);
      const used = await delivered('magic_link.challenge.succeeded', domain);
      expect(used).toMatchObject({ __environment__: 'sandbox', data: { user_id: user.id, client_id: system.apiKey.clientId } });
      // The same link again: refused as before, and recorded as a failed magic-link sign-in.
      expect((await exchange(challenge.body.code)).status).toBe(400);
      const reused = await delivered('magic_link.challenge.failed', domain);
      expect(reused).toMatchObject({
        __environment__: 'sandbox',
        data: { organization_domain: domain, user_id: user.id, method: 'magic_link', reason: 'already_used' },
      });
      for (const event of [sent, used, reused]) {
        noSecrets(event);
        expect(JSON.stringify(event)).not.toContain(challenge.body.code);
      }
      await system.request('PUT', `/api/v2/org/${domain}/magic-link-connection`, { body: { find_or_create_user: true } });
      expect(await delivered('magic_link_connection.created', domain)).toMatchObject({ data: { connection: { active: true } } });
      expect(await delivered('magic_link_connection.updated', domain)).toMatchObject({
        data: { connection: { find_or_create_user: true } },
      });
    });

    it('delivers a password set, then changed, and every successful challenge', async () => {
      const email = 'linus@signin-hooks.com';
      const first = await system.request('POST', '/api/v2/password', {
        body: { org_domain: domain, user_email: email, plain_text: 'violet hedgehogs sing at dawn' },
      });
      expect(first.status).toBe(201);
      // Replacing a password without a reset code is the explicit passwords:write privilege's.
      const second = await system.request('POST', '/api/v2/password', {
        key: system.createApiKey('sandbox', ['authentications:write', 'passwords:write']),
        body: { org_domain: domain, user_email: email, plain_text: 'amber foxes dance at dusk' },
      });
      expect(second.status).toBe(201);
      const challenge = await system.request('POST', '/api/v2/password-challenge', {
        body: { org_domain: domain, user_email: email, plain_text: 'amber foxes dance at dusk' },
      });
      expect(challenge.body).toMatchObject({ 'valid?': true });
      // Its code exchanged twice: the second is refused and recorded, without the code.
      expect((await exchange(challenge.body.code)).status).toBe(200);
      expect((await exchange(challenge.body.code)).status).toBe(400);
      const refused = await delivered('authorization_code.exchange.failed', domain);
      expect(refused).toMatchObject({
        __environment__: 'sandbox',
        data: { organization_domain: domain, user_id: first.body.user_id, method: 'password', reason: 'already_used' },
      });
      expect(JSON.stringify(refused)).not.toContain(challenge.body.code);
      expect(await delivered('password.created', domain)).toMatchObject({
        data: { user_id: first.body.user_id, password_id: first.body.id, previous_password_id: null },
      });
      expect(await delivered('password.updated', domain)).toMatchObject({
        __environment__: 'sandbox',
        data: { user_id: first.body.user_id, password_id: second.body.id, previous_password_id: first.body.id },
      });
      const succeeded = await delivered('password.challenge.succeeded', domain);
      expect(succeeded).toMatchObject({ __environment__: 'sandbox', data: { email } });
      await system.request('POST', '/api/v2/password-challenge', {
        body: { org_domain: domain, user_email: email, plain_text: 'not the right passphrase 0' },
      });
      expect(await delivered('password.challenge.failed', domain)).toMatchObject({ data: { email } });
      const reset = await system.request('POST', '/api/v2/password-request', {
        body: { org_domain: domain, user_email: email, redirect_uri: callback },
      });
      expect(reset.status).toBe(201);
      expect(await delivered('password.request.created', domain)).toMatchObject({
        data: { user_id: first.body.user_id, reason: 'reset', redirect_uri: callback },
      });
      for (const event of deliveredTo('/all').filter((item) => item.code.startsWith('password.'))) noSecrets(event);
    });

    it('delivers TOTP events in the organization of the user', async () => {
      const created = await system.request('POST', `/api/v2/org/${domain}/users`, { body: { email: 'mfa@signin-hooks.com' } });
      const userId = created.body.id as string;
      await system.request('PUT', `/api/v2/org/${domain}/totp-connection`, { body: { active: true } });
      const enrolled = await system.request('POST', `/api/v2/org/${domain}/totp-enrollment/${userId}`, { body: {} });
      expect(enrolled.status).toBe(201);
      const totp = OTPAuth.URI.parse(enrolled.body.uri) as OTPAuth.TOTP;
      /** The code of the previous (-1) or current (0) time step: each is accepted once, one step either side of now. */
      const code = (steps: number) => totp.generate({ timestamp: Date.now() + steps * totp.period * 1000 });
      await awayFromStepEdge();
      const validation = `/api/v2/org/${domain}/totp-enrollment/validation/${userId}?code=${code(-1)}`;
      expect((await system.request('PUT', validation)).status).toBe(200);
      expect((await system.request('POST', `/api/v2/org/${domain}/totp-challenge/${userId}`)).status).toBe(201);
      const answer = `/api/v2/org/${domain}/totp-challenge/validation/${userId}`;
      const wrong = code(0) === '000000' ? '111111' : '000000';
      expect((await system.request('PUT', answer, { body: { code: wrong } })).status).toBe(401);
      expect((await system.request('PUT', answer, { body: { code: code(0) } })).status).toBe(200);
      for (const code of [
        'totp_connection.updated',
        'totp.enrollment.created',
        'totp.enrollment.validated',
        'totp.challenge.created',
        'totp.challenge.failed',
        'totp.challenge.succeeded',
      ] as const) {
        const event = await delivered(code, domain);
        expect(event).toMatchObject({ __environment__: 'sandbox' });
        if (code !== 'totp_connection.updated') expect(event.data.user_id).toBe(userId);
        noSecrets(event);
      }
    });
  });

  describe('relays', () => {
    it('delivers a relay created, updated, requested and deleted, in the partner organization', async () => {
      const acme = await createOrganization(system, 'Relay Hooks', { allowed_email_domains: ['relay-hooks.com'] });
      const partner = await createOrganization(system, 'Relay Partner Hooks');
      await system.request('POST', `/api/v2/org/${acme}/magic-link-connection`, { body: {} });
      const relay = await system.request('POST', '/api/v2/relays', {
        body: { partner_domain: partner, partner_redirect_uri: partnerCallback, jit: true, source_organizations: [acme] },
      });
      expect(relay.status).toBe(201);
      expect(await delivered('relay.created', partner)).toMatchObject({
        __environment__: 'sandbox',
        data: { relay: { id: relay.body.id, partner_domain: partner, jit: true } },
      });
      expect(
        (await system.request('PUT', `/api/v2/relays/${relay.body.id}`, { body: { session_duration_minutes: 30 } })).status,
      ).toBe(200);
      expect(await delivered('relay.updated', partner)).toMatchObject({
        data: { relay: { id: relay.body.id, session_duration_minutes: 30 } },
      });

      const link = await system.request('POST', '/api/v2/magic-link-challenge', {
        body: { email: 'alice@relay-hooks.com', org_domain: acme, redirect_uri: callback, find_or_create_user: true },
      });
      const tokens = await system.request('POST', '/oauth/token', {
        token: null,
        body: {
          grant_type: 'authorization_code',
          code: link.body.code,
          client_id: system.apiKey.clientId,
          client_secret: system.apiKey.clientSecret,
        },
      });
      expect(tokens.status).toBe(200);
      const request = await system.request('POST', `/api/v2/relays/${relay.body.id}/request`, {
        body: { access_token: tokens.body.access_token },
      });
      expect(request.status).toBe(201);
      const requested = await delivered('relay.request.created', partner);
      expect(requested).toMatchObject({
        __environment__: 'sandbox',
        data: {
          relay_id: relay.body.id,
          from_user_id: request.body.from_user,
          from_organization_domain: acme,
          partner_user_id: request.body.to_partner_user,
        },
      });
      noSecrets(requested);
      expect(JSON.stringify(requested)).not.toContain(new URL(request.body.relay_uri).searchParams.get('code'));

      expect((await system.request('DELETE', `/api/v2/relays/${relay.body.id}`)).status).toBe(200);
      expect(await delivered('relay.deleted', partner)).toMatchObject({ data: { relay: { id: relay.body.id } } });
    });
  });

  describe('SAML SSO logins', () => {
    let domain: string;
    let idp: TestIdp;
    let sp: { entity_id: string; acs_url: string };
    let spMetadata: string;
    const email = 'ada@sso-hooks.test';

    beforeAll(async () => {
      domain = await createOrganization(system, 'SSO Hooks', { allowed_email_domains: ['sso-hooks.test'] });
      idp = await TestIdp.create();
      const created = await system.request('POST', `/api/v2/org/${domain}/sso-connection`, {
        body: { provider_type: 'okta', metadata: idp.metadata() },
      });
      expect(created.status).toBe(201);
      sp = { entity_id: created.body.saml_config.entity_id, acs_url: created.body.saml_config.acs_url };
      spMetadata = await (await fetch(created.body.saml_config.cryptr_metadata_url)).text();
    });
    /** Challenge, then the browser goes to the IdP: answers the AuthnRequest id and RelayState. */
    const startSignIn = async () => {
      const challenge = await system.request('POST', '/api/v2/sso-saml-challenge', {
        body: { redirect_uri: callback, user_email: email },
      });
      expect(challenge.status).toBe(201);
      const hop = await browserGet(challenge.body.authorization_url);
      const request = await idpReceivesAuthnRequest(idp, hop.location as string, spMetadata);
      return { request_id: challenge.body.request_id as string, inResponseTo: request.id, relayState: request.relayState };
    };

    it('delivers the connection created and updated in its organization, without the SP private key', async () => {
      const updated = await system.request('PUT', `/api/v2/org/${domain}/sso-connection`, {
        body: { update_profile_only_at_creation: true },
      });
      expect(updated.status).toBe(200);
      const events = [await delivered('sso_connection.created', domain), await delivered('sso_connection.updated', domain)];
      for (const event of events) {
        expect(event).toMatchObject({ __environment__: 'sandbox', data: { sp_id: `${domain}_sandbox` } });
        expect(JSON.stringify(event)).not.toMatch(/PRIVATE KEY|encrypted_private_key|sp_key/);
      }
      expect(events[1]?.data.settings).toMatchObject({ update_profile_only_at_creation: true });
    });

    it('delivers a successful login with the organization, environment and who signed in', async () => {
      const { request_id, inResponseTo, relayState } = await startSignIn();
      const response = idp.loginResponse(sp, { nameId: email, inResponseTo, attributes: { email, firstName: 'Ada' } });
      const landing = await postToAcs(sp.acs_url, response, relayState ?? undefined);
      expect(landing.status).toBe(302);
      const user = (await system.request('GET', `/api/v2/org/${domain}/users/${email}`)).body;
      const event = await delivered('sso.login.succeeded', domain);
      expect(event).toMatchObject({
        __environment__: 'sandbox',
        data: { request_id, organization_domain: domain, subject: { email, user_id: user.id, name_id: email } },
      });
      noSecrets(event);
      expect(JSON.stringify(event)).not.toContain(new URL(landing.location as string).searchParams.get('code'));
      expect(await delivered('user.identity_recorded', domain)).toMatchObject({
        data: { user: { id: user.id }, identity: { provider: 'saml.okta' } },
      });
    });

    it('delivers a refused login with its reason code, never the response', async () => {
      const { request_id, inResponseTo, relayState } = await startSignIn();
      const unsigned = idp.loginResponse(sp, { nameId: email, inResponseTo, sign: 'none' });
      const landing = await postToAcs(sp.acs_url, unsigned, relayState ?? undefined);
      expect(landing.status).toBe(302);
      expect(new URL(landing.location as string).searchParams.get('error')).toBe('access_denied');
      const event = await delivered('sso.login.failed', domain);
      expect(event).toEqual(
        expect.objectContaining({
          __environment__: 'sandbox',
          data: { request_id, organization_domain: domain, sso_connection_id: expect.any(String), reason: 'unsigned' },
        }),
      );
      noSecrets(event);
    });
  });

  describe('organizations, IT admins, password connections, redirect URIs and user metadata keys', () => {
    it('delivers an organization created, updated and deleted, with its IT admins', async () => {
      const domain = await createOrganization(system, 'Org Hooks');
      const connection = `/api/v2/org/${domain}/password-connection`;
      const passwordConnection = await system.request('POST', connection, { body: { plain_text_min_length: 10 } });
      expect(passwordConnection).toMatchObject({ status: 201, body: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
      const id = passwordConnection.body.id as string;
      expect((await system.request('PUT', connection, { body: { plain_text_min_length: 12 } })).status).toBe(200);
      expect(await delivered('password_connection.created', domain)).toMatchObject({ data: { id, plain_text_min_length: 10 } });
      expect(await delivered('password_connection.updated', domain)).toMatchObject({ data: { id, plain_text_min_length: 12 } });

      const accepted = await inviteAdmin(system, domain, 'it@org-hooks.example');
      const opened = await openInvitation(system, accepted.token);
      expect(opened.status).toBe(200);
      expect((await onboardingCall(system, 'POST', 'accept', opened.session)).status).toBe(200);
      const declined = await inviteAdmin(system, domain, 'other@org-hooks.example');
      const declining = await openInvitation(system, declined.token);
      expect((await onboardingCall(system, 'POST', 'decline', declining.session)).status).toBe(200);
      expect((await system.request('DELETE', `/api/v2/org/${domain}/admins/it@org-hooks.example`)).status).toBe(200);
      for (const [code, email] of [
        ['admin.invited', 'it@org-hooks.example'],
        ['admin.logged_in', 'it@org-hooks.example'],
        ['admin.invitation_accepted', 'it@org-hooks.example'],
        ['admin.invitation_declined', 'other@org-hooks.example'],
        ['admin.deleted', 'it@org-hooks.example'],
      ] as const) {
        const event = await delivered(code, domain);
        expect(event).toMatchObject({ __environment__: 'sandbox', data: { admin: { email } } });
        noSecrets(event);
        expect(JSON.stringify(event)).not.toContain(accepted.token);
        expect(JSON.stringify(event)).not.toContain(opened.session);
      }

      expect((await system.request('PUT', `/api/v2/organizations/${domain}`, { body: { color: '#ff6600' } })).status).toBe(200);
      expect((await system.request('DELETE', `/api/v2/organizations/${domain}`)).status).toBe(200);
      expect(await delivered('organization.created', domain)).toMatchObject({ data: { domain, name: 'Org Hooks' } });
      expect(await delivered('organization.updated', domain)).toMatchObject({ data: { changes: { color: '#ff6600' } } });
      expect(await delivered('organization.deleted', domain)).toMatchObject({ __environment__: 'sandbox', data: { domain } });
    });

    it('delivers redirect URI and user metadata key changes, which belong to the environment (no organization)', async () => {
      const added = await system.request('POST', '/api/v2/redirect_uris', { body: { url: 'https://other.hooks.example/cb' } });
      expect(added.status).toBe(201);
      const listed = (await system.request('GET', '/api/v2/redirect_uris?per_page=100')).body.data as {
        id: string;
        url: string;
      }[];
      const first = listed.find((uri) => uri.url === callback) as { id: string };
      expect((await system.request('PUT', `/api/v2/redirect_uris/${added.body.id}/set-as-default`)).status).toBe(200);
      expect((await system.request('DELETE', `/api/v2/redirect_uris/${first.id}`)).status).toBe(200);
      expect(await delivered('redirect_uri.created', null)).toMatchObject({ __environment__: 'sandbox' });
      const toAdded = (event: DeliveredEvent) => event.data.id === added.body.id;
      expect(await delivered('redirect_uri.default_changed', null, '/all', toAdded)).toMatchObject({
        data: { id: added.body.id },
      });
      expect(await delivered('redirect_uri.deleted', null)).toMatchObject({ data: { id: first.id, url: callback } });

      expect((await system.request('POST', '/api/v2/tokens/user-metakeys', { body: { name: 'plan' } })).status).toBe(201);
      await eventually(
        async () => (await system.request('DELETE', '/api/v2/tokens/user-metakeys?name=plan')).status === 404,
        long,
      );
      expect(await delivered('user_metakey.created', null)).toMatchObject({ data: { metakey: { name: 'plan' } } });
      expect(await delivered('user_metakey.deletion_started', null)).toMatchObject({ data: { name: 'plan' } });
      expect(await delivered('user_metakey.deleted', null)).toMatchObject({ data: { name: 'plan' } });
    });
  });

  it('delivers the verification of an email domain: started, failed (no record yet), verified', async () => {
    const domain = await createOrganization(system, 'Domain Hooks', { allowed_email_domains: ['domain-hooks.example'] });
    const path = `/api/v2/organizations/${domain}/domains/domain-hooks.example`;
    const started = await system.request('POST', `${path}/verification`);
    expect(started.status).toBe(200);
    expect((await system.request('POST', `${path}/verify`)).status).toBe(422);
    dns.publishTxt(started.body.record.name, started.body.record.value);
    expect((await system.request('POST', `${path}/verify`)).status).toBe(200);
    expect(await delivered('organization.domain.verification_started', domain)).toMatchObject({
      __environment__: 'sandbox',
      data: { email_domain: 'domain-hooks.example', record_name: '_sesame-verification.domain-hooks.example' },
    });
    expect(await delivered('organization.domain.verification_failed', domain)).toMatchObject({
      data: { email_domain: 'domain-hooks.example', reason: 'record_not_found' },
    });
    expect(await delivered('organization.domain.verified', domain)).toMatchObject({
      data: { email_domain: 'domain-hooks.example', method: 'dns_txt' },
    });
  });

  it('delivered every code of the catalogue after a real action, each signed with the webhook key', () => {
    expect([...seen].sort()).toEqual(Object.keys(webhookEventCatalogue).sort());
  });
});

/** Waits until the current 30 s step has at least 8 s left, so that client and server agree on "now". */
async function awayFromStepEdge(period = 30): Promise<void> {
  const left = period * 1000 - (Date.now() % (period * 1000));
  if (left < 8_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}
