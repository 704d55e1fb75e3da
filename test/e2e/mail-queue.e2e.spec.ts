import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { System } from '../support/system';
import { createOrganization } from '../support/identity-fixtures';

const callback = 'https://app.hooli-mail.example/auth/callback';

/** A real SMTP server on loopback that holds every message until released. */
async function holdingSmtpServer() {
  const attempts: string[] = [];
  const received: { to: string; raw: string }[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      const to = session.envelope.rcptTo[0]?.address ?? '';
      attempts.push(to);
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on(
        'end',
        () =>
          void released.then(() => {
            received.push({ to, raw });
            done();
          }),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return { url, attempts, received, release, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const eventually = async (check: () => boolean, what: string) => {
  for (const deadline = Date.now() + 15_000; !check(); await new Promise((resolve) => setTimeout(resolve, 50)))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
};

describe('Mail over SMTP through the mail queue (all processes, real NATS, real SMTP server)', () => {
  let system: System;
  let smtp: Awaited<ReturnType<typeof holdingSmtpServer>>;
  let org: string;

  beforeAll(async () => {
    smtp = await holdingSmtpServer();
    system = await System.start({ env: { SESAME_MAIL_TRANSPORT: 'smtp', SESAME_SMTP_URL: smtp.url } });
    org = await createOrganization(system, 'Hooli Mail', { allowed_email_domains: ['hooli-mail.com'] });
    expect((await system.request('POST', '/api/v2/redirect_uris', { body: { url: callback } })).status).toBe(201);
    expect((await system.request('POST', `/api/v2/org/${org}/users`, { body: { email: 'gavin@hooli-mail.com' } })).status).toBe(
      201,
    );
    expect((await system.request('POST', `/api/v2/org/${org}/magic-link-connection`, { body: {} })).status).toBe(201);
  });
  afterAll(async () => {
    smtp?.release();
    await system?.stop();
    await smtp?.close();
  });

  it('answers a magic-link challenge while the mail server still holds its email, then delivers a link that signs in', async () => {
    const answer = await system.request('POST', '/api/v2/magic-link-challenge', {
      body: { email: 'gavin@hooli-mail.com', redirect_uri: callback },
    });
    expect(answer.status).toBe(201);
    await eventually(() => smtp.attempts.includes('gavin@hooli-mail.com'), 'the email to reach the SMTP server');
    expect(smtp.received).toEqual([]);
    smtp.release();
    await eventually(() => smtp.received.length === 1, 'the released email');
    const mail = smtp.received[0]?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=') ?? '';
    const link = new URL(/https:\/\/app\.hooli-mail\.example\/auth\/callback\?\S+/.exec(mail)?.[0] ?? 'https://missing.example');
    expect(link.searchParams.get('request_id')).toBe(answer.body.request_id);
    const tokens = await system.request('POST', '/oauth/token', {
      token: null,
      form: new URLSearchParams({
        grant_type: 'authorization_code',
        code: link.searchParams.get('code') ?? '',
        client_id: system.apiKey.clientId,
        client_secret: system.apiKey.clientSecret,
      }).toString(),
    });
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', access_token: expect.any(String) } });
  });
});
