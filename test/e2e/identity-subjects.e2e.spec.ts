import { randomUUID } from 'node:crypto';
import { subjects, orgDomainRequiredMessages } from '@sesame/contracts';
import type { RpcReply } from '@sesame/contracts';
import { connect } from 'nats';
import { createLogger } from '@sesame/platform';
import { RpcClient } from '@sesame/platform/messaging';
import { OutboxSmsSender } from '@sesame/platform/sms';
import { System } from '../support/system';
import { createOrganization, eventually } from '../support/identity-fixtures';
import { inviteAdmin, onboardingCall, openInvitation } from '../support/admin-invitations';

const users = subjects.identity.users;
const groups = subjects.identity.groups;

describe('Identity subjects for other services (real NATS, all processes)', () => {
  let system: System;
  let rpc: RpcClient;
  let org: string;
  const scope = () => ({ organization_domain: org, environment: 'sandbox' as const });
  /** A request as another service sends it; the answer is the service's RpcReply. */
  const call = (subject: string, input: unknown, environment?: 'sandbox' | 'production'): Promise<RpcReply<any>> =>
    rpc.request(subject, { meta: { correlationId: randomUUID(), ...(environment ? { environment } : {}) }, input });
  const notFound = { ok: false, error: { kind: 'error', code: 'resource_not_found' } };

  beforeAll(async () => {
    system = await System.start();
    rpc = await RpcClient.connect({
      nats: system.natsOptions('test-peer'),
      prefix: system.prefix,
      timeoutMs: 10_000,
    });
    org = await createOrganization(system, 'Subjects Org');
  });
  afterAll(async () => {
    await rpc?.close();
    await system?.stop();
  });

  describe('users', () => {
    let scimUser: { id: string };

    it('provisions a user with the public rules, and finds it by id and by email', async () => {
      const created = await call(users.provision, {
        ...scope(),
        email: 'scim.user@example.com',
        profile: { given_name: 'Scim' },
        source: 'scim',
      });
      expect(created).toMatchObject({
        ok: true,
        status: 201,
        body: { email: 'scim.user@example.com', __domain__: org, __environment__: 'sandbox' },
      });
      scimUser = (created as { body: { id: string } }).body;
      expect(await call(users.findById, { ...scope(), id: scimUser.id })).toMatchObject({
        ok: true,
        body: { user: { id: scimUser.id } },
      });
      expect(await call(users.findByEmail, { ...scope(), email: 'SCIM.user@example.com' })).toMatchObject({
        body: { user: { id: scimUser.id } },
      });
      expect(await call(users.findByEmail, { ...scope(), email: 'none@example.com' })).toMatchObject({
        ok: true,
        body: { user: null },
      });
      // The organization belongs to sandbox: production has none of this domain.
      expect(await call(users.findById, { organization_domain: org, environment: 'production', id: scimUser.id })).toEqual(
        notFound,
      );
      expect(await call(users.provision, { ...scope(), email: 'scim.user@example.com', source: 'scim' })).toEqual({
        ok: false,
        error: { kind: 'fields', fields: { email: ['has already been taken'] }, reason: 'taken' },
      });
      expect(await call(users.provision, { ...scope(), email: 'bad', source: 'scim' })).toEqual({
        ok: false,
        error: { kind: 'fields', fields: { email: ['invalid_format'] } },
      });
      expect(await call(users.findById, { organization_domain: 'no-such-org', environment: 'sandbox', id: scimUser.id })).toEqual(
        {
          ok: false,
          error: { kind: 'error', code: 'resource_not_found' },
        },
      );
    });

    it('finds or creates', async () => {
      const existing = await call(users.findOrCreate, { ...scope(), email: 'scim.user@example.com', source: 'magic_link' });
      expect(existing).toMatchObject({ ok: true, body: { created: false, user: { id: scimUser.id } } });
      const fresh = await call(users.findOrCreate, {
        ...scope(),
        email: 'new.link@example.com',
        email_verified: true,
        source: 'magic_link',
      });
      expect(fresh).toMatchObject({
        ok: true,
        status: 201,
        body: { created: true, user: { email: 'new.link@example.com', email_verified: true } },
      });
    });

    it('modifies and deactivates', async () => {
      expect(await call(users.modify, { ...scope(), id: scimUser.id, profile: { family_name: 'User' } })).toMatchObject({
        ok: true,
        body: { profile: { given_name: 'Scim', family_name: 'User' } },
      });
      expect(await call(users.deactivate, { ...scope(), id: scimUser.id })).toMatchObject({ ok: true, body: { active: false } });
    });

    it('searches and counts with filters', async () => {
      const page = await call(users.search, { ...scope(), per_page: 1, filter: { active: true } });
      expect(page).toMatchObject({ ok: true, body: { total: 1, data: [{ email: 'new.link@example.com' }] } });
      expect(await call(users.count, { ...scope(), filter: {} })).toMatchObject({ body: { count: 2 } });
      expect(await call(users.count, { ...scope(), filter: { given_name: 'Scim' } })).toMatchObject({ body: { count: 1 } });
      expect(await call(users.count, { ...scope(), filter: { email: 'NEW.link@example.com' } })).toMatchObject({
        body: { count: 1 },
      });
    });

    it('records an identity: the provider owns the profile attributes it sends, which the API then refuses to edit', async () => {
      const identity = { provider: 'saml.okta', idp_id: 'okta-123', authenticated_at: 1_700_000_000, data: { groups: ['a'] } };
      const recorded = await call(users.recordIdentity, {
        ...scope(),
        id: scimUser.id,
        identity,
        profile: { given_name: 'Okta Given', family_name: 'Okta Family' },
      });
      expect(recorded).toMatchObject({ ok: true, body: { identities: [identity], profile: { given_name: 'Okta Given' } } });
      const path = `/api/v2/org/${org}/users/${scimUser.id}`;
      const refused = await system.request('PUT', path, {
        body: { email: 'scim.user@example.com', profile: { given_name: 'Mine' } },
      });
      expect(refused).toEqual(
        expect.objectContaining({
          status: 422,
          body: {
            errors: {
              'profile.given_name': [
                'is managed by the identity provider saml.okta, which refreshes it at each sign-in: change it there (or set its connection to update profiles only at creation)',
              ],
            },
          },
        }),
      );
      // Unchanged values and attributes the provider does not send stay accepted.
      const allowed = await system.request('PUT', path, {
        body: { email: 'scim.user@example.com', profile: { given_name: 'Okta Given', nickname: 'mine' } },
      });
      expect(allowed).toMatchObject({ status: 200, body: { profile: { nickname: 'mine' } } });
      // A connection set to update profiles only at creation leaves the attributes editable.
      const once = await call(users.recordIdentity, {
        ...scope(),
        id: scimUser.id,
        identity: { ...identity, authenticated_at: 1_700_000_100 },
        profile: { given_name: 'Ignored' },
        update_profile_only_at_creation: true,
      });
      expect(once).toMatchObject({
        ok: true,
        body: { profile: { given_name: 'Okta Given' }, identities: [{ authenticated_at: 1_700_000_100 }] },
      });
      expect(
        (await system.request('PUT', path, { body: { email: 'scim.user@example.com', profile: { given_name: 'Mine' } } })).status,
      ).toBe(200);
    });

    it('removes', async () => {
      expect(await call(users.remove, { ...scope(), id: scimUser.id })).toMatchObject({
        ok: true,
        body: { deleted: true, resource: { id: scimUser.id } },
      });
      expect(await call(users.remove, { ...scope(), id: scimUser.id })).toEqual({
        ok: false,
        error: { kind: 'error', code: 'resource_not_found' },
      });
    });
  });

  describe('groups', () => {
    let members: string[];
    let group: { id: string };
    beforeAll(async () => {
      members = [];
      for (const email of ['g1@example.com', 'g2@example.com', 'g3@example.com'])
        members.push(((await call(users.provision, { ...scope(), email, source: 'scim' })) as { body: { id: string } }).body.id);
    });

    it('creates a group of users of the organization and environment only', async () => {
      const created = await call(groups.create, { ...scope(), display_name: 'Engineering', members: members.slice(0, 2) });
      expect(created).toMatchObject({
        ok: true,
        status: 201,
        body: {
          __type__: 'Group',
          __domain__: org,
          __environment__: 'sandbox',
          display_name: 'Engineering',
          members: members.slice(0, 2),
        },
      });
      group = (created as { body: { id: string } }).body;
      const stranger = randomUUID();
      expect(await call(groups.create, { ...scope(), display_name: 'Bad', members: [stranger] })).toEqual({
        ok: false,
        error: { kind: 'fields', fields: { members: [`are not users of this organization and environment: ${stranger}`] } },
      });
      expect(await call(groups.create, { ...scope(), display_name: '' })).toMatchObject({ ok: false, error: { kind: 'fields' } });
    });

    it('gets, lists, updates and changes members', async () => {
      expect(await call(groups.get, { ...scope(), id: group.id })).toMatchObject({ body: { group: { id: group.id } } });
      expect(await call(groups.get, { organization_domain: org, environment: 'production', id: group.id })).toEqual(notFound);
      expect(await call(groups.list, { ...scope(), member: members[1] })).toMatchObject({
        body: { total: 1, data: [{ id: group.id }] },
      });
      const updated = await call(groups.update, {
        ...scope(),
        id: group.id,
        display_name: 'Platform',
        members: [members[1], members[2]],
      });
      expect(updated).toMatchObject({ ok: true, body: { display_name: 'Platform', members: [members[1], members[2]] } });
      expect(await call(groups.addMembers, { ...scope(), id: group.id, members: [members[0]] })).toMatchObject({
        body: { members: [members[1], members[2], members[0]] },
      });
      expect(await call(groups.removeMembers, { ...scope(), id: group.id, members: [members[2]] })).toMatchObject({
        body: { members: [members[1], members[0]] },
      });
    });

    it('drops a deleted user from its groups', async () => {
      await call(users.remove, { ...scope(), id: members[0] });
      await eventually(async () => {
        const reply = (await call(groups.get, { ...scope(), id: group.id })) as { body: { group: { members: string[] } } };
        return !reply.body.group.members.includes(members[0] as string);
      });
    });

    it('deletes', async () => {
      expect(await call(groups.delete, { ...scope(), id: group.id })).toMatchObject({
        ok: true,
        body: { deleted: true, resource: { id: group.id } },
      });
      expect(await call(groups.get, { ...scope(), id: group.id })).toMatchObject({ body: { group: null } });
      expect(await call(groups.delete, { ...scope(), id: group.id })).toEqual({
        ok: false,
        error: { kind: 'error', code: 'resource_not_found' },
      });
    });
  });

  describe('dev outboxes', () => {
    it('shows the text messages of the local SMS outbox at GET /dev/sms-outbox', async () => {
      const nc = await connect(system.natsOptions());
      try {
        await new OutboxSmsSender(nc, system.prefix, 'Sesame', createLogger('test', 'silent')).send({
          to: '+33611223344',
          text: 'Your code is 424242',
          tags: ['totp'],
        });
      } finally {
        await nc.close();
      }
      const { status, body } = await system.request('GET', '/dev/sms-outbox?to=%2B33611223344', { token: null });
      expect(status).toBe(200);
      expect(body.data).toEqual([
        expect.objectContaining({ to: '+33611223344', text: 'Your code is 424242', from: 'Sesame', transport: 'outbox' }),
      ]);
    });
  });

  describe('user metakeys', () => {
    it('lists the registered keys of an environment (the custom claims of ID tokens)', async () => {
      const name = `claim_${randomUUID().slice(0, 8)}`;
      await system.request('POST', '/api/v2/tokens/user-metakeys', { body: { name } });
      const answer = await call(subjects.identity.userMetakeys.active, { environment: 'sandbox' });
      expect(answer).toMatchObject({ ok: true, status: 200 });
      expect((answer as { body: { data: unknown[] } }).body.data).toContainEqual({ name, required: false, type: 'string' });
      expect(await call(subjects.identity.userMetakeys.active, { environment: 'production' })).toMatchObject({
        ok: true,
        body: { data: [] },
      });
    });
  });

  describe('redirect URIs and admins', () => {
    it('checks whether a URL is a registered redirect URI and tells the default', async () => {
      expect(
        await call(subjects.identity.redirectUris.check, { environment: 'sandbox', url: 'https://a.example.com/cb' }),
      ).toEqual({
        ok: true,
        status: 200,
        body: { registered: false, default_url: null },
      });
      await system.request('POST', '/api/v2/redirect_uris', { body: { url: 'https://a.example.com/cb' } });
      expect(
        await call(subjects.identity.redirectUris.check, { environment: 'sandbox', url: 'https://a.example.com/cb' }),
      ).toMatchObject({
        body: { registered: true, default_url: 'https://a.example.com/cb' },
      });
    });

    it('checks an onboarding session for the gateway, and records admin logins', async () => {
      const { token } = await inviteAdmin(system, org, 'inspect@example.com');
      const { session, body } = await openInvitation(system, token);
      const sessionScope = { ...scope(), admin_id: body.admin.id, session_id: expect.any(String) };
      const authenticate = (value: string) => call(subjects.identity.admins.authenticateOnboardingSession, { session: value });
      expect(await authenticate(session as string)).toEqual({ ok: true, status: 200, body: sessionScope });
      expect(await authenticate(token)).toEqual({
        ok: false,
        error: {
          kind: 'error',
          code: 'onboarding_session_required',
          message: 'Your onboarding session has ended: ask for a new invitation link',
        },
      });
      expect((await onboardingCall(system, 'POST', 'accept', session)).status).toBe(200);
      expect(await authenticate(session as string)).toMatchObject({ ok: false, error: { code: 'onboarding_session_required' } });
      const login = await call(subjects.identity.admins.recordLogin, { ...scope(), email: 'inspect@example.com' });
      expect(login).toMatchObject({ ok: true, body: { last_login_at: expect.any(String) } });
    });
  });
  describe('organizations for sign-in', () => {
    const forSignIn = subjects.identity.organizations.forSignIn;

    it('finds the only organization allowing the email domain, or the one named', async () => {
      const domain = await createOrganization(system, 'Sign In Org', { allowed_email_domains: ['signin-only.example'] });
      expect(await call(forSignIn, { email: 'Ada@SIGNIN-only.example' }, 'sandbox')).toMatchObject({
        ok: true,
        body: { organization: { domain, __environment__: 'sandbox', allowed_email_domains: ['signin-only.example'] } },
      });
      expect(await call(forSignIn, { email: 'ada@elsewhere.example', org_domain: org }, 'sandbox')).toMatchObject({
        ok: true,
        body: { organization: { domain: org } },
      });
      expect(await call(forSignIn, { email: 'ada@elsewhere.example', org_domain: 'no-such-org' }, 'sandbox')).toEqual(notFound);
    });

    it('looks in the environment of the caller only, which it must name', async () => {
      expect(await call(forSignIn, { email: 'ada@signin-only.example' })).toEqual({
        ok: false,
        error: { kind: 'error', code: 'unauthorized' },
      });
      expect(await call(forSignIn, { email: 'ada@elsewhere.example', org_domain: org }, 'production')).toEqual(notFound);
      const unverified = {
        ok: false,
        error: { kind: 'fields', fields: { org_domain: [orgDomainRequiredMessages.unverified] } },
      };
      expect(await call(forSignIn, { email: 'ada@signin-only.example' }, 'production')).toEqual(unverified);
      const production = system.createApiKey('production');
      const domain = await createOrganization(
        system,
        'Sign In Org',
        { allowed_email_domains: ['signin-only.example'] },
        production,
      );
      // In production only a verified domain routes by email: allowed is not enough.
      expect(await call(forSignIn, { email: 'ada@signin-only.example' }, 'production')).toEqual(unverified);
      const asserted = await system.request('POST', `/api/v2/organizations/${domain}/domains/signin-only.example/assert`, {
        key: production,
      });
      expect(asserted.status).toBe(200);
      expect(await call(forSignIn, { email: 'ada@signin-only.example' }, 'production')).toMatchObject({
        ok: true,
        body: { organization: { domain, __environment__: 'production' } },
      });
    });

    it('asks for org_domain when no organization or several allow the domain', async () => {
      expect(await call(forSignIn, { email: 'ada@nobody.example' }, 'sandbox')).toEqual({
        ok: false,
        error: { kind: 'fields', fields: { org_domain: ['is required: no organization allows the domain of this email'] } },
      });
      await createOrganization(system, 'Shared One', { allowed_email_domains: ['shared.example'] });
      await createOrganization(system, 'Shared Two', { allowed_email_domains: ['shared.example'] });
      expect(await call(forSignIn, { email: 'ada@shared.example' }, 'sandbox')).toEqual({
        ok: false,
        error: { kind: 'fields', fields: { org_domain: ['is required: several organizations allow the domain of this email'] } },
      });
    });
  });
});
