import { connect } from 'nats';
import { testNatsUrl } from '@sesame/platform/testing';
import { System } from '../support/system';
import type { ApiKey } from '../support/system';
import { createOrganization, notFound, unauthorized } from '../support/identity-fixtures';

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
  const answer = (choice: 'accept' | 'decline', token: string) =>
    system.request('POST', `/api/v2/admin-invitations/${choice}`, { token: null, body: { token } });

  beforeAll(async () => {
    system = await System.start();
    production = system.createApiKey('production');
    org = await createOrganization(system, 'Admins Org');
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('invites an admin and emails a long-lived invitation link through the local outbox', async () => {
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
  });

  it('stores only a hash of the invitation token', async () => {
    const { token } = await lastInvitation('it.admin@example.com');
    const secret = token.split('.')[1] as string;
    const nc = await connect({ servers: testNatsUrl() });
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

  it('lists and gets admins by email, case-insensitively; other environments do not see them', async () => {
    const list = await system.request('GET', admins());
    expect(list.body).toMatchObject({ total: 1, data: [{ email: 'It.Admin@Example.com' }] });
    expect(list.body.pagination).toEqual({ current_page: 1, next_page: null, prev_page: null, per_page: 10, total_pages: 1 });
    expect((await system.request('GET', `${admins()}/it.admin@example.com`)).body.email).toBe('It.Admin@Example.com');
    expect(await system.request('GET', `${admins()}/nobody@example.com`)).toMatchObject({ status: 404, body: notFound });
    expect((await system.request('GET', admins(), { key: production })).body.total).toBe(0);
    expect(await system.request('GET', `${admins()}/it.admin@example.com`, { key: production })).toMatchObject({ status: 404 });
  });

  it('inviting again sends a new link and the previous one stops working', async () => {
    const { token: old } = await lastInvitation('it.admin@example.com');
    const again = await system.request('POST', admins(), { body: { email: 'it.admin@example.com' } });
    expect(again.status).toBe(201);
    const { token: fresh } = await lastInvitation('it.admin@example.com');
    expect(fresh).not.toBe(old);
    expect(await answer('accept', old)).toMatchObject({ status: 422, body: { errors: { token: ['is invalid'] } } });
    expect((await system.request('GET', admins())).body.total).toBe(1);
  });

  it('accepts an invitation once', async () => {
    const { token } = await lastInvitation('it.admin@example.com');
    const accepted = await answer('accept', token);
    expect(accepted.status).toBe(200);
    expect(accepted.body.accepted_invitation_at).toEqual(expect.any(String));
    expect(accepted.body.declined_to_be_in_charge_at).toBeNull();
    expect(await answer('accept', token)).toMatchObject({ status: 422, body: { errors: { token: ['has already been used'] } } });
    expect(await answer('decline', token)).toMatchObject({ status: 422, body: { errors: { token: ['has already been used'] } } });
    expect((await system.request('GET', `${admins()}/it.admin@example.com`)).body).toEqual(accepted.body);
    expect(await system.request('POST', admins(), { body: { email: 'it.admin@example.com' } })).toMatchObject({
      status: 422,
      body: { errors: { email: ['has already been taken: this admin accepted an invitation'] } },
    });
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
    ['no token', {}, { token: ["can't be blank"] }],
    ['a malformed token', { token: 'garbage' }, { token: ['is invalid'] }],
    [
      'a forged secret',
      { token: '00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      { token: ['is invalid'] },
    ],
  ])('refuses an answer with %s', async (_case, body, errors) => {
    expect(await system.request('POST', '/api/v2/admin-invitations/accept', { token: null, body })).toMatchObject({
      status: 422,
      body: { errors },
    });
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
    expect(await answer('accept', token)).toMatchObject({ status: 422, body: { errors: { token: ['is invalid'] } } });
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
