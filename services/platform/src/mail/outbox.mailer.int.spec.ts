import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { createLogger } from '../logging/logger';
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

  it('logs every message it keeps', async () => {
    const lines: string[] = [];
    const logger = createLogger('test', 'info');
    const spy = jest
      .spyOn(logger, 'info')
      .mockImplementation(((...args: unknown[]) => void lines.push(JSON.stringify(args))) as never);
    await new OutboxMailer(nc, prefix, 'x <x@x.test>', logger).send({ to: 'log@example.com', subject: 'Logged', text: 't' });
    expect(spy).toHaveBeenCalled();
    expect(lines.join()).toContain('log@example.com');
  });

  it('reads an outbox nobody wrote to as empty', async () => {
    expect(await readOutbox(nc, testPrefix('empty'))).toEqual([]);
    expect(await readOutbox(nc, prefix, { to: 'nobody@example.com' })).toEqual([]);
  });
});
