import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createLogger } from '../logging/logger';
import { mailerContract } from '../testing/mailer.contract';
import type { SentMail } from './mail.port';
import { SmtpMailer } from './smtp.mailer';

/** A real SMTP peer (the `smtp-server` package) on loopback, keeping what it receives. */
describe('SmtpMailer (SMTP through nodemailer)', () => {
  let server: SMTPServer;
  let mailer: SmtpMailer;
  const received: { to: string; raw: string }[] = [];

  mailerContract(
    async () => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        onData(stream, session, callback) {
          let raw = '';
          stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
          stream.on('end', () => {
            for (const recipient of session.envelope.rcptTo) received.push({ to: recipient.address, raw });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.server.address() as AddressInfo;
      mailer = new SmtpMailer(`smtp://127.0.0.1:${port}`, 'Sesame <no-reply@sesame.test>', createLogger('test', 'silent'));
      return {
        mailer,
        delivered: async (to: string): Promise<Partial<SentMail>[]> =>
          received
            .filter((mail) => mail.to === to)
            .map((mail) => ({
              to,
              subject: /^Subject: (.*)$/m.exec(mail.raw)?.[1]?.trim(),
              text: decodeText(mail.raw),
            })),
      };
    },
    async () => {
      mailer.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  );

  it('sends the tags as a header and the HTML part', async () => {
    await mailer.send({ to: 'tags@example.com', subject: 'Tagged', text: 'plain', html: '<b>rich</b>', tags: ['a', 'b'] });
    const raw = received.find((mail) => mail.to === 'tags@example.com')?.raw ?? '';
    expect(raw).toContain('X-Sesame-Tags: a,b');
    expect(raw).toContain('<b>rich</b>');
  });
});

/** The text/plain part of a MIME message (quoted-printable soft breaks undone). */
function decodeText(raw: string): string {
  const part = /Content-Type: text\/plain[^]*?\r?\n\r?\n([^]*?)(?:\r?\n--|$)/.exec(raw)?.[1] ?? '';
  return part
    .replace(/=\r?\n/g, '')
    .replace(/=3D/g, '=')
    .trim();
}
