import { connect } from 'nats';
import { formatDate } from '@sesame/platform';
import type { System } from '../support/system';
import { sharedSystem } from '../support/shared-system';
import type { ApiKey } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';
import { onboardingCall, openInvitation } from '../support/admin-invitations';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: { rel: string; url: string }[];
  tags: string[];
}

describe('IT admins over HTTP (all processes, real NATS)', () => {
  let system: System;
  let production: ApiKey;
  let org: string;
  const admins = (domain = org) => `/api/v2/org/${domain}/admins`;

  const lastInvitation = async (email: string) => {
    const { body } = await system.request('GET', `/dev/outbox?to=${encodeURIComponent(email)}`, { token: null });
    const mail = body.data.at(-1) as OutboxMail;
    const link = mail.links.find((item) => item.rel === 'admin-invitation')?.url as string;
    return { mail, link, token: new URL(link).searchParams.get('token') as string };
  };
  /** Opens the link (the onboarding page's session), then answers with that session. */
  const answer = async (choice: 'accept' | 'decline', token: string) => {
    const opened = await openInvitation(system, token);
    return opened.session ? onboardingCall(system, 'POST', choice, opened.session) : opened;
  };
  const invalidLink = { status: 422, body: { errors: { token: ['is invalid'] } } };
  const sessionError = (message: string) => ({
    error: { type: 'onboarding_session_required', message, doc_urls: ['http://localhost:8000/it-admin-onboarding'] },
  });

  beforeAll(async () => {
    system = await sharedSystem();
    production = system.createApiKey('production');
    org = await createOrganization(system, 'Admins Org');
  });

  it('invites an admin and emails a single-use, short-lived invitation link through the local outbox', async () => {
    const { status, body } = await system.request('POST', admins(), { body: { email: 'It.Admin@Example.com' } });
    expect(status).toBe(201);
    expect(body).toEqual({
      __type__: 'Admin',
      __domain__: org,
      __environment__: 'sandbox',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: 'It.Admin@Example.com',
      organization: org,
      color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      invited_at: expect.any(String),
      accepted_invitation_at: null,
      declined_to_be_in_charge_at: null,
      last_login_at: null,
    });
    const { mail, link, token } = await lastInvitation('it.admin@example.com');
    expect(mail).toMatchObject({
      to: 'It.Admin@Example.com',
      subject: 'You are invited to set up single sign-on for Admins Org',
      tags: ['admin-invitation', org, 'sandbox'],
    });
    expect(link.startsWith(`${system.baseUrl}/onboarding/admin-invitation?token=`)).toBe(true);
    expect(mail.text).toContain(link);
    expect(token).toMatch(new RegExp(`^${body.id}\\.`));
    // The email says exactly how the link behaves (an organization without locale and timezone: English, UTC).
    const expires = formatDate(new Date(Date.parse(body.invited_at) + 3_600_000), { formatLocale: 'en', timeZone: 'UTC' });
    expect(mail.text.split('\n').slice(-3)).toEqual([
      `This link works once, and only until ${expires} (1 hour after it was sent).`,
      'Opening it starts a session on the set-up page in that browser only: the session ends after 30 minutes without activity, 8 hours after it started at the latest, and when you finish the set-up or decline.',
      'After that, or if the link has expired, ask the person who invited you for a new link: a new link replaces this one.',
    ]);
  });

  it('stores only a hash of the invitation token', async () => {
    const { token } = await lastInvitation('it.admin@example.com');
    const secret = token.split('.')[1] as string;
    const nc = await connect(system.natsOptions());
    try {
      const jsm = await nc.jetstreamManager();
      const stream = `${system.prefix}_identity_events`.toUpperCase();
      const { state } = await jsm.streams.info(stream);
      let found = false;
      for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
        const message = await jsm.streams.getMessage(stream, { seq });
        if (Buffer.from(message.data).toString('utf8').includes(secret)) found = true;
      }
      expect(found).toBe(false);
    } finally {
      await nc.close();
    }
  });

  it('lists and gets admins by email, case-insensitively; the other environment does not see them', async () => {
    const list = await system.request('GET', admins());
    expect(list.body).toMatchObject({ total: 1, data: [{ email: 'It.Admin@Example.com' }] });
    expect(list.body.pagination).toEqual({
      current_page: 1,
      current_pages: 1,
      next_page: null,
      prev_page: null,
      per_page: 10,
      total_pages: 1,
    });
    expect((await system.request('GET', `${admins()}/it.admin@example.com`)).body.email).toBe('It.Admin@Example.com');
    expect(await system.request('GET', `${admins()}/nobody@example.com`)).toMatchObject({ status: 404, body: notFound });
    // Production has no organization of this domain: 404, as for anything of another environment.
    expect(await system.request('GET', admins(), { key: production })).toMatchObject({ status: 404, body: notFound });
    // Its own organization of the same domain is another one, with no admin.
    expect(await createOrganization(system, 'Admins Org', {}, production)).toBe(org);
    expect((await system.request('GET', admins(), { key: production })).body.total).toBe(0);
    expect(await system.request('GET', `${admins()}/it.admin@example.com`, { key: production })).toMatchObject({
      status: 404,
      body: notFound,
    });
  });

  it('inviting again sends a new link and the previous one stops working', async () => {
    const { token: old } = await lastInvitation('it.admin@example.com');
    const again = await system.request('POST', admins(), { body: { email: 'it.admin@example.com' } });
    expect(again.status).toBe(201);
    const { token: fresh } = await lastInvitation('it.admin@example.com');
    expect(fresh).not.toBe(old);
    expect(await answer('accept', old)).toMatchObject(invalidLink);
    expect((await system.request('GET', admins())).body.total).toBe(1);
  });

  it('accepts an invitation once, with the session its link opened; inviting again sends a fresh link', async () => {
    const { token } = await lastInvitation('it.admin@example.com');
    const { session } = await openInvitation(system, token);
    const accepted = await onboardingCall(system, 'POST', 'accept', session);
    expect(accepted.status).toBe(200);
    expect(accepted.body.accepted_invitation_at).toEqual(expect.any(String));
    expect(accepted.body.declined_to_be_in_charge_at).toBeNull();
    const ended = { status: 401, body: sessionError('Your onboarding session has ended: ask for a new invitation link') };
    expect(await onboardingCall(system, 'POST', 'accept', session)).toMatchObject(ended);
    expect(await onboardingCall(system, 'POST', 'decline', session)).toMatchObject(ended);
    expect(await openInvitation(system, token)).toMatchObject({
      status: 422,
      body: { errors: { token: ['has already been used: the link works once, ask for a new one'] } },
    });
    expect((await system.request('GET', `${admins()}/it.admin@example.com`)).body).toEqual(accepted.body);

    // To change the set-up later, the vendor sends a fresh link; having accepted stays on record until the next answer.
    const again = await system.request('POST', admins(), { body: { email: 'it.admin@example.com' } });
    expect(again).toMatchObject({ status: 201, body: { accepted_invitation_at: accepted.body.accepted_invitation_at } });
    const { token: fresh } = await lastInvitation('it.admin@example.com');
    expect(await answer('accept', fresh)).toMatchObject({ status: 200, body: { accepted_invitation_at: expect.any(String) } });
  });

  it('records a declined invitation', async () => {
    expect((await system.request('POST', admins(), { form: 'email=reluctant%40example.com' })).status).toBe(201);
    const { token } = await lastInvitation('reluctant@example.com');
    const declined = await answer('decline', token);
    expect(declined).toMatchObject({
      status: 200,
      body: { accepted_invitation_at: null, declined_to_be_in_charge_at: expect.any(String) },
    });
  });

  it.each([
    [
      'no session',
      null,
      'Open the link of your invitation email: this call needs the onboarding session it opens in your browser',
    ],
    ['a malformed session', 'garbage', 'Your onboarding session has ended: ask for a new invitation link'],
    [
      'a forged session',
      '00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'Your onboarding session has ended: ask for a new invitation link',
    ],
  ])('refuses an answer with %s', async (_case, session, message) => {
    expect(await onboardingCall(system, 'POST', 'accept', session)).toMatchObject({ status: 401, body: sessionError(message) });
  });

  it('refuses bad emails and unknown organizations', async () => {
    expect(await system.request('POST', admins(), { body: { email: 'nope' } })).toMatchObject({
      status: 422,
      body: { errors: { email: ['invalid_format'] } },
    });
    expect(await system.request('POST', admins(), { body: {} })).toMatchObject({
      status: 422,
      body: { errors: { email: ["can't be blank"] } },
    });
    for (const [method, path] of [
      ['POST', admins('no-such-org')],
      ['GET', admins('no-such-org')],
      ['GET', `${admins('no-such-org')}/a@example.com`],
      ['DELETE', `${admins('no-such-org')}/a@example.com`],
    ] as const)
      expect(await system.request(method, path, method === 'POST' ? { body: { email: 'a@example.com' } } : {})).toMatchObject({
        status: 404,
        body: notFound,
      });
  });

  it('deletes an admin: { deleted, resource }, then 404, and the invitation link stops working', async () => {
    expect((await system.request('POST', admins(), { body: { email: 'leaving@example.com' } })).status).toBe(201);
    const { token } = await lastInvitation('leaving@example.com');
    const deleted = await system.request('DELETE', `${admins()}/LEAVING@example.com`);
    expect(deleted).toMatchObject({ status: 200, body: { deleted: true, resource: { email: 'leaving@example.com' } } });
    expect(await system.request('GET', `${admins()}/leaving@example.com`)).toMatchObject({ status: 404, body: notFound });
    expect(await system.request('DELETE', `${admins()}/leaving@example.com`)).toMatchObject({ status: 404, body: notFound });
    expect(await answer('accept', token)).toMatchObject(invalidLink);
  });

  it('deleting an admin ends the onboarding session their link opened', async () => {
    expect((await system.request('POST', admins(), { body: { email: 'mid.setup@example.com' } })).status).toBe(201);
    const { session } = await openInvitation(system, (await lastInvitation('mid.setup@example.com')).token);
    expect((await onboardingCall(system, 'POST', 'session', session)).status).toBe(200);
    expect((await system.request('DELETE', `${admins()}/mid.setup@example.com`)).status).toBe(200);
    expect(await onboardingCall(system, 'POST', 'sso/sp-settings', session)).toMatchObject({
      status: 401,
      body: sessionError('Your onboarding session has ended: ask for a new invitation link'),
    });
  });

  it('checks privileges', async () => {
    const reader = system.createApiKey('sandbox', ['admins:read']);
    expect((await system.request('GET', admins(), { key: reader })).status).toBe(200);
    expect(await system.request('POST', admins(), { key: reader, body: { email: 'x@example.com' } })).toMatchObject({
      status: 401,
      body: unauthorized,
    });
  });
});
