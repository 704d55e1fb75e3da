import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { createLogger } from '../logging/logger';
import { outboxRetentionMs } from '../outbox/jetstream-outbox';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { mailerContract } from '../testing/mailer.contract';
import { OutboxMailer, outboxStreamName, readOutbox } from './outbox.mailer';

describe('OutboxMailer (local outbox on JetStream)', () => {
  let nc: NatsConnection;
  const prefix = testPrefix('mail');

  mailerContract(
    async () => {
      nc = await connect({ servers: testNatsUrl() });
      const mailer = new OutboxMailer(nc, prefix, 'Sesame <no-reply@sesame.test>', createLogger('test', 'silent'));
      return { mailer, delivered: (to: string) => readOutbox(nc, prefix, { to }) };
    },
    async () => {
      await (await nc.jetstreamManager()).streams.delete(outboxStreamName(prefix)).catch(() => undefined);
      await nc.close();
    },
  );

  it('reads the whole outbox oldest first, filters by tag, keeps the newest `limit`, and finds recipients case-insensitively', async () => {
    const mailer = new OutboxMailer(nc, prefix, 'Sesame <no-reply@sesame.test>', createLogger('test', 'silent'));
    for (const n of [1, 2, 3])
      await mailer.send({ to: 'Many@Example.com', subject: `m${n}`, text: 't', tags: n === 2 ? ['two'] : [] });
    expect((await readOutbox(nc, prefix, { to: 'many@example.com' })).map((mail) => mail.subject)).toEqual(['m1', 'm2', 'm3']);
    expect((await readOutbox(nc, prefix, { to: 'many@example.com', limit: 2 })).map((mail) => mail.subject)).toEqual([
      'm2',
      'm3',
    ]);
    expect((await readOutbox(nc, prefix, { tag: 'two' })).map((mail) => mail.subject)).toEqual(['m2']);
    expect((await readOutbox(nc, prefix)).length).toBeGreaterThanOrEqual(5);
  });

  it('logs every message it keeps: recipient, template and body, never the secrets of its links', async () => {
    const lines: string[] = [];
    const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(line) });
    const link = 'https://app.example.com/reset?password_code=pwc_never_logged&request_id=7';
    await new OutboxMailer(nc, prefix, 'x <x@x.test>', logger).send({
      to: 'log@example.com',
      subject: 'Reset your password',
      text: `To choose a new password, open ${link} (valid one hour).`,
      links: [{ rel: 'password-reset', url: link }],
      tags: ['password-reset', 'acme'],
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('pwc_never_logged');
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      msg: 'mail kept in the local outbox',
      mail: {
        to: 'log@example.com',
        subject: 'Reset your password',
        template: 'password-reset',
        body: 'To choose a new password, open https://app.example.com/reset?password_code=[redacted]&request_id=7 (valid one hour).',
      },
    });
    // The outbox itself keeps the link: it is the developer's mailbox.
    expect((await readOutbox(nc, prefix, { to: 'log@example.com' })).at(-1)?.links).toEqual([
      { rel: 'password-reset', url: link },
    ]);
  });

  it('keeps messages an hour in production, a week otherwise, shortening the stream a development run created', async () => {
    const own = testPrefix('retention');
    const jsm = await nc.jetstreamManager();
    const maxAgeHours = async () => (await jsm.streams.info(outboxStreamName(own))).config.max_age / 3_600e9;
    const send = (mode: 'development' | 'production') =>
      new OutboxMailer(nc, own, 'x <x@x.test>', createLogger('test', 'silent'), outboxRetentionMs(mode)).send({
        to: 'kept@example.com',
        subject: mode,
        text: 't',
      });
    try {
      await send('development');
      expect(await maxAgeHours()).toBe(7 * 24);
      await send('production');
      expect(await maxAgeHours()).toBe(1);
      expect((await readOutbox(nc, own, { to: 'kept@example.com' })).map((mail) => mail.subject)).toEqual([
        'development',
        'production',
      ]);
    } finally {
      await jsm.streams.delete(outboxStreamName(own)).catch(() => undefined);
    }
  });

  it('reads an outbox nobody wrote to as empty', async () => {
    expect(await readOutbox(nc, testPrefix('empty'))).toEqual([]);
    expect(await readOutbox(nc, prefix, { to: 'nobody@example.com' })).toEqual([]);
  });
});
