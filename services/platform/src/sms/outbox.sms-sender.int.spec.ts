import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import { createLogger } from '../logging/logger';
import { readOutbox } from '../mail/outbox.mailer';
import { smsSenderContract } from '../testing/sms-sender.contract';
import { testNatsUrl, testPrefix } from '../testing/test-prefix';
import { OutboxSmsSender, readSmsOutbox, smsOutboxStreamName } from './outbox.sms-sender';

describe('OutboxSmsSender (local SMS outbox on JetStream)', () => {
  let nc: NatsConnection;
  const prefix = testPrefix('sms');

  smsSenderContract(
    async () => {
      nc = await connect({ servers: testNatsUrl() });
      const sender = new OutboxSmsSender(nc, prefix, 'Sesame', createLogger('test', 'silent'));
      return { sender, delivered: (to: string) => readSmsOutbox(nc, prefix, { to }) };
    },
    async () => {
      await (await nc.jetstreamManager()).streams.delete(smsOutboxStreamName(prefix)).catch(() => undefined);
      await nc.close();
    },
  );

  it('filters by tag, keeps the newest `limit`, and stays apart from the mail outbox', async () => {
    const sender = new OutboxSmsSender(nc, prefix, 'Sesame', createLogger('test', 'silent'));
    for (const n of [1, 2, 3]) await sender.send({ to: '+442071838750', text: `t${n}`, tags: n === 2 ? ['two'] : [] });
    expect((await readSmsOutbox(nc, prefix, { to: '+442071838750', limit: 2 })).map((sms) => sms.text)).toEqual(['t2', 't3']);
    expect((await readSmsOutbox(nc, prefix, { tag: 'two' })).map((sms) => sms.text)).toEqual(['t2']);
    expect(await readOutbox(nc, prefix, { to: '+442071838750' })).toEqual([]);
  });
});
